/** Multipart bodies and signed-in creators for the upload tests. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { createUser } from '../modules/accounts/index.ts';
import { makeTestMedia, TEST_MEDIA_DIR } from '../../scripts/make-test-media.ts';
import { ORIGIN } from './browser.ts';
import type { TestApp } from './harness.ts';

export async function testMedia(name: string): Promise<Buffer> {
  await makeTestMedia();
  return readFile(path.join(TEST_MEDIA_DIR, name));
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

export async function multipart(parts: Part[]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const p of parts) {
    if (typeof p.value === 'string' && p.filename === undefined) form.append(p.name, p.value);
    else form.append(p.name, new Blob([p.value], { type: p.type ?? 'application/octet-stream' }), p.filename ?? 'file');
  }
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } };
}

export async function signedInCreator(t: TestApp, name: string) {
  const user = await createUser(t.db, { email: `${name}@example.com`, displayName: name, role: 'creator', emailVerified: true });
  const { token } = await createSession(t.db, user.id, 1, {});
  return { user, cookies: { [SESSION_COOKIE]: token }, headers: { origin: ORIGIN, host: 'localhost:3000' } };
}

export function uploadParts(video: Buffer, thumbnail: Buffer, extra: Partial<Record<'title' | 'description' | 'category', string>> = {}, names = { video: 'clip.mp4', thumbnail: 'thumb.jpg' }): Part[] {
  return [
    { name: 'title', value: extra.title ?? 'My upload' },
    { name: 'description', value: extra.description ?? 'What happens in it' },
    { name: 'category', value: extra.category ?? 'music' },
    { name: 'video', value: video, filename: names.video, type: 'video/mp4' },
    { name: 'thumbnail', value: thumbnail, filename: names.thumbnail, type: 'image/jpeg' },
  ];
}

/** Seeds the demo content into a test app (clips come from the shared media cache). */
import { findMediaTools } from '../platform/media/ffmpeg.ts';
import { seedDemo } from '../seed/seed-demo.ts';
import { MEDIA_CACHE, testApp, type TestApp } from './harness.ts';

export async function seededApp(): Promise<TestApp> {
  const t = await testApp();
  const tools = await findMediaTools(t.config);
  await seedDemo({ db: t.db, storage: t.storage, tools, adminPassword: 'correct horse battery', mediaCache: MEDIA_CACHE, log: () => {} });
  return t;
}

/**
 * For the admin portal's tests: signed-in people (admins are customers with is_admin, as the seed
 * makes one), requests as them, and rows made straight in the database (videos, orders, payouts,
 * jobs, subscriptions) so the dashboard's figures can be checked against what was made.
 */
import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createUser } from '../modules/accounts/index.ts';
import type { OrderStatus } from '../platform/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { ORIGIN } from './browser.ts';
import type { TestApp } from './harness.ts';

export const hex = (n = 4) => randomBytes(n).toString('hex');

export interface Person {
  id: string;
  email: string;
  username: string;
  displayName: string;
  cookies: Record<string, string>;
}

export async function person(t: TestApp, opts: { role?: 'creator' | 'customer'; admin?: boolean; name?: string; email?: string } = {}): Promise<Person> {
  const email = opts.email ?? `${opts.name?.toLowerCase().replace(/[^a-z0-9]/g, '') || 'user'}-${hex()}@example.com`;
  const displayName = opts.name ?? `Person ${hex(2)}`;
  const user = await createUser(t.db, { email, displayName, role: opts.role ?? (opts.admin ? 'customer' : 'creator'), emailVerified: true });
  if (opts.admin) await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
  const { token } = await createSession(t.db, user.id, 1, {});
  return { id: user.id, email, username: user.username, displayName: user.display_name, cookies: { [SESSION_COOKIE]: token } };
}

/** A request as the person (or signed out), with this site's Origin on writes. */
export function send(
  t: TestApp,
  as: Person | null,
  req: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> },
): Promise<LightMyRequestResponse> {
  const method = req.method ?? 'GET';
  return t.app.inject({
    method,
    url: req.url,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
    headers: method === 'GET' ? {} : { origin: ORIGIN },
    ...(as ? { cookies: as.cookies } : {}),
  });
}

export async function video(t: TestApp, userId: string, status: 'verified_via_supabase_auth' | 'pending' | 'approved' | 'rejected'): Promise<string> {
  const row = await t.db
    .insertInto('videos')
    .values({ user_id: userId, title: `Video ${hex(2)}`, video_key: `ad/${hex(8)}.mp4`, content_type: 'video/mp4', size_bytes: 1, verification_status: status })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function order(t: TestApp, status: OrderStatus, subtotalCents: number, shippingCents: number): Promise<string> {
  const row = await t.db
    .insertInto('orders')
    .values({
      status,
      shipping_zip: '10001',
      shipping_country: 'US',
      subtotal_cents: subtotalCents,
      shipping_cents: shippingCents,
      total_cents: subtotalCents + shippingCents,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function subscription(
  t: TestApp,
  userId: string,
  tier: 'free' | 'pro',
  status: 'trialing' | 'active' | 'past_due' | 'canceled' | 'incomplete' | 'pending_approval',
  thirdTier = false,
): Promise<void> {
  await t.db.insertInto('user_subscriptions').values({ user_id: userId, tier, status, is_third_tier: thirdTier }).execute();
}

export async function job(t: TestApp, status: 'queued' | 'running' | 'done' | 'failed'): Promise<void> {
  await t.db.insertInto('jobs').values({ kind: 'test.job', payload: '{}', status }).execute();
}

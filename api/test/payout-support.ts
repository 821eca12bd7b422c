/**
 * For the payout run tests: creators with a payout method set up, earnings written the way a
 * paid order writes them (creditOrderEarnings) and taken back the way a refund does
 * (reverseOrderEarnings), dated at will, and a fake payout provider that keeps every request,
 * pays each idempotency key once (a key sent again gets the first answer), and answers as told.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { PayoutMethodName } from '../../shared/schemas/payouts.ts';
import type { PayoutProvider, PayoutRequest, PayoutSubmission } from '../integrations/payouts/index.ts';
import { createUser } from '../modules/accounts/index.ts';
import { creditOrderEarnings, reverseOrderEarnings } from '../modules/earnings/index.ts';
import type { DB } from '../platform/db/schema.ts';

export interface Sealer {
  seal(plaintext: string, associatedData: string): string;
}

/** The payout setup of a creator who has set nothing up: no method, payouts off, the $50 threshold. */
export const EMPTY_PAYOUT_SETUP = {
  preferred_payment_method: null,
  payout_enabled: false,
  paypal_email: null,
  ach: null,
  stripe_connect: null,
  tax_email: null,
  tax_info_verified: false,
  payout_threshold_cents: 5000,
} as const;

export const TEST_ROUTING = '021000021';

/** The platform bank's details (NACHA_* settings): with them ACH payouts become NACHA file entries an admin downloads. */
export const TEST_NACHA_ENV = {
  NACHA_IMMEDIATE_DESTINATION: '021000021',
  NACHA_IMMEDIATE_ORIGIN: '1987654321',
  NACHA_COMPANY_NAME: 'FrameMerch',
  NACHA_COMPANY_ID: '1987654321',
  NACHA_ODFI: '02100002',
};
export const TEST_ACCOUNT = '000123456789';

let serial = 0;

/** A creator with payouts on and their method's details saved (an active Stripe account for Stripe Connect). */
export async function payoutCreator(
  db: Kysely<DB>,
  sealer: Sealer,
  opts: { method?: PayoutMethodName; thresholdCents?: number; enabled?: boolean; name?: string } = {},
): Promise<string> {
  const n = ++serial;
  const name = opts.name ?? `Payee ${n}`;
  const user = await createUser(db, { email: `payee-${n}-${randomUUID().slice(0, 8)}@example.com`, displayName: name, role: 'creator', emailVerified: true });
  const method = opts.method ?? 'paypal';
  const details =
    method === 'paypal'
      ? { paypal_email: `paypal-${n}@example.com` }
      : method === 'ach'
        ? {
            ach_routing_number_encrypted: sealer.seal(TEST_ROUTING, user.id),
            ach_routing_last4: TEST_ROUTING.slice(-4),
            ach_account_number_encrypted: sealer.seal(TEST_ACCOUNT, user.id),
            ach_account_last4: TEST_ACCOUNT.slice(-4),
            ach_account_holder_name: name,
            ach_account_type: 'checking' as const,
          }
        : { stripe_connect_email: `stripe-${n}@example.com`, stripe_connect_account_id: `acct_test${n}`, stripe_connect_status: 'active' as const };
  await db
    .updateTable('users')
    .set({ ...details, preferred_payment_method: method, payout_enabled: opts.enabled ?? true, payout_threshold_cents: opts.thresholdCents ?? 5000 })
    .where('id', '=', user.id)
    .execute();
  return user.id;
}

let sku: { sku: string; name: string; base: number } | null = null;

/**
 * A paid order of one item whose margin is `marginCents`, credited to the creator as the payment
 * webhook credits it; its earning record is dated `at`. Answers the order id.
 */
export async function earn(db: Kysely<DB>, creatorId: string, marginCents: number, at: Date = new Date()): Promise<string> {
  if (!sku) {
    const r = await db.selectFrom('catalogue_products').select(['sku', 'name', 'base_cost_cents as base']).orderBy('sku').executeTakeFirstOrThrow();
    sku = { sku: r.sku, name: r.name, base: Number(r.base) };
  }
  const product = sku;
  const unit = product.base + marginCents;
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .insertInto('orders')
      .values({
        status: 'paid',
        customer_email: null,
        shipping_zip: '10001',
        shipping_country: 'US',
        subtotal_cents: unit,
        shipping_cents: 0,
        total_cents: unit,
        payment_provider: 'embedded',
        payment_session_id: `cs_test_${randomUUID()}`,
        idempotency_key: `test-${randomUUID()}`,
        paid_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('order_items')
      .values({
        order_id: order.id,
        position: 0,
        sku: product.sku,
        product_name: product.name,
        creator_id: creatorId,
        colour: 'Black',
        size: 'M',
        quantity: 1,
        unit_price_cents: unit,
        base_cost_cents: product.base,
        line_total_cents: unit,
      })
      .execute();
    await creditOrderEarnings(trx, order.id);
    await sql`update earnings set created_at = ${at} where order_item_id in (select id from order_items where order_id = ${order.id})`.execute(trx);
    return order.id;
  });
}

/** Refunds the order as the refund webhook does: a reversal of its earning, dated `at`. */
export async function refund(db: Kysely<DB>, orderId: string, at: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('orders').set({ status: 'refunded' }).where('id', '=', orderId).execute();
    await reverseOrderEarnings(trx, orderId);
    await sql`update earnings set created_at = ${at} where kind = 'reversal' and order_item_id in (select id from order_items where order_id = ${orderId})`.execute(trx);
  });
}

export type FakeAnswer = PayoutSubmission['status'] | 'error';

/**
 * A payout provider as the real ones behave: the first request with a key is paid (or refused)
 * as `answer` says, a repeat of the key gets the same submission back and pays nothing more;
 * 'error' is an outage (it throws, and takes nothing).
 */
export class FakePayoutProvider implements PayoutProvider {
  readonly kind = 'embedded' as const;
  /** Every request, in order. */
  readonly requests: PayoutRequest[] = [];
  /** The first submission per key: what was actually paid or refused. */
  readonly taken = new Map<string, { request: PayoutRequest; submission: PayoutSubmission }>();
  answer: (request: PayoutRequest) => FakeAnswer = () => 'processing';
  delayMs = 0;

  constructor(readonly method: PayoutMethodName) {}

  async submit(request: PayoutRequest): Promise<PayoutSubmission> {
    this.requests.push(request);
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const known = this.taken.get(request.idempotencyKey);
    if (known) return known.submission;
    const answer = this.answer(request);
    if (answer === 'error') throw Object.assign(new Error('the provider is not answering'), { name: 'PayoutProviderError' });
    const submission: PayoutSubmission = {
      providerReference: `ref_${this.taken.size + 1}_${request.idempotencyKey.slice(0, 8)}`,
      status: answer,
      ...(answer === 'failed' ? { failureReason: `Receiver account ${TEST_ACCOUNT} is closed` } : {}),
    };
    this.taken.set(request.idempotencyKey, { request, submission });
    return submission;
  }
}

/** One fake per method, and providerFor over them. */
export function fakeProviders() {
  const byMethod = {
    paypal: new FakePayoutProvider('paypal'),
    ach: new FakePayoutProvider('ach'),
    stripe_connect: new FakePayoutProvider('stripe_connect'),
  };
  const all = Object.values(byMethod);
  return {
    byMethod,
    providerFor: (method: PayoutMethodName) => byMethod[method],
    setAnswer(answer: (request: PayoutRequest) => FakeAnswer) {
      for (const p of all) p.answer = answer;
    },
    set delayMs(ms: number) {
      for (const p of all) p.delayMs = ms;
    },
    requests: () => all.flatMap((p) => p.requests),
    taken: () => all.flatMap((p) => [...p.taken.values()]),
  };
}

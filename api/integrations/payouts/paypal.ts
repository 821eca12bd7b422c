/**
 * PayPal Payouts (REST): one batch of one item per payout.
 *
 *  - OAuth2 client credentials (POST /v1/oauth2/token), the token kept until shortly before it
 *    expires and asked for again once if PayPal answers 401;
 *  - POST /v1/payments/payouts with sender_batch_header.sender_batch_id = the request's
 *    idempotency key (one per creator and period). PayPal refuses a sender_batch_id used in the
 *    last 30 days and links the original batch, so a repeated request cannot pay twice: that
 *    refusal is read as 'already submitted' and the original batch is looked up (GET
 *    /v1/payments/payouts/{payout_batch_id}). The item: recipient_type EMAIL, the amount in
 *    dollars as a string from integer cents, USD, sender_item_id = the payout id;
 *  - outcomes arrive as webhooks (PAYMENT.PAYOUTS-ITEM.SUCCEEDED, .FAILED, .BLOCKED, .RETURNED...),
 *    verified by PayPal itself (POST /v1/notifications/verify-webhook-signature with
 *    PAYPAL_WEBHOOK_ID) and read into PayoutEvents by payoutEventFromPayPal.
 *
 * The verification is injectable: the embedded payout provider signs its PayPal-format events
 * with a key of this app's (embeddedPayPalVerifier), and they go through the same parsing.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { PayoutProviderError, PayoutWebhookError } from './errors.ts';
import type { PayoutEvent, PayoutProvider, PayoutRequest, PayoutSubmission } from './provider.ts';

export const PAYPAL_API = 'https://api-m.paypal.com';
/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

/** The headers PayPal signs a webhook with (names in lower case, as Node gives them). */
export type PayPalWebhookHeaders = Record<string, string | string[] | undefined>;

/** Whether a webhook's raw body and headers are PayPal's (or the embedded twin's, for its verifier). */
export type PayPalWebhookVerifier = (rawBody: Buffer, headers: PayPalWebhookHeaders) => Promise<boolean>;

export interface PayPalOptions {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** PayPal's API (https://api-m.paypal.com; the sandbox is https://api-m.sandbox.paypal.com); tests point it at a local stand-in. */
  apiBase?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** How webhooks are verified: by default PayPal's verify-webhook-signature call. */
  verify?: PayPalWebhookVerifier;
  now?: () => number;
}

/** Integer cents as PayPal's dollars string: 1234 -> '12.34'. */
export function centsToDollars(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`${cents} is not a whole number of cents`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const header = (headers: PayPalWebhookHeaders, name: string): string | undefined => {
  const v = headers[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[0] : undefined;
};

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** What PayPal said went wrong, from an error answer (name, message and the first detail). */
function errorText(json: Json): string {
  const details = Array.isArray(json.details) ? (json.details as unknown[]).map(obj).filter(Boolean) : [];
  const first = details[0];
  const parts = [str(json.name), str(json.message), first ? [str(first.field), str(first.issue)].filter(Boolean).join(': ') : undefined];
  return parts.filter(Boolean).join(' - ').slice(0, 500) || 'no details';
}

/** PayPal's refusal of a sender_batch_id it has seen in the last 30 days. */
function isDuplicateBatch(answer: Answer): boolean {
  if (answer.status < 400 || answer.status >= 500) return false;
  const text = JSON.stringify(answer.json).toLowerCase();
  return text.includes('sender_batch_id') && /duplicate|already (been )?(used|exists?)/.test(text);
}

/** The id of the original batch from the HATEOAS links of a duplicate refusal. */
function linkedBatchId(json: Json): string | undefined {
  const links = Array.isArray(json.links) ? (json.links as unknown[]) : [];
  for (const l of links) {
    const href = str(obj(l)?.href);
    const m = href ? /\/v1\/payments\/payouts\/([A-Za-z0-9_-]+)(?:[?#]|$)/.exec(href) : null;
    if (m) return m[1];
  }
  return undefined;
}

const ITEM_FAILED = new Set(['FAILED', 'RETURNED', 'BLOCKED', 'DENIED', 'REFUNDED', 'REVERSED', 'CANCELED']);

/** A batch (and its one item) as PayPal answers GET /v1/payments/payouts/{id}, as a submission. */
function submissionOfBatch(json: Json, fallbackReference: string): PayoutSubmission {
  const batch = obj(json.batch_header);
  const reference = str(batch?.payout_batch_id) ?? fallbackReference;
  const item = obj(Array.isArray(json.items) ? (json.items as unknown[])[0] : undefined);
  const itemStatus = str(item?.transaction_status);
  if (itemStatus === 'SUCCESS') return { providerReference: reference, status: 'paid' };
  if (itemStatus && ITEM_FAILED.has(itemStatus)) {
    return { providerReference: reference, status: 'failed', failureReason: itemFailure(item!, itemStatus) };
  }
  if (str(batch?.batch_status) === 'DENIED') return { providerReference: reference, status: 'failed', failureReason: 'PayPal denied the payout batch' };
  return { providerReference: reference, status: 'processing' };
}

function itemFailure(item: Json, status: string): string {
  const errors = obj(item.errors);
  return (str(errors?.message) ?? str(errors?.name) ?? `PayPal reported the payout item ${status.toLowerCase()}`).slice(0, 500);
}

export class PayPalPayouts implements PayoutProvider {
  readonly method = 'paypal' as const;
  readonly kind = 'paypal' as const;
  readonly #base: string;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  #token: { value: string; expiresAt: number } | null = null;
  #tokenRequest: Promise<string> | null = null;
  /** How this adapter's webhooks are verified (PayPal's verify-webhook-signature call unless another was given). */
  readonly verifyWebhook: PayPalWebhookVerifier;

  constructor(private readonly options: PayPalOptions) {
    this.#base = (options.apiBase ?? PAYPAL_API).replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
    this.verifyWebhook = options.verify ?? ((raw, headers) => this.verifyWithPayPal(raw, headers));
  }

  async #send(method: 'GET' | 'POST', path: string, init: { headers: Record<string, string>; body?: string }): Promise<Answer> {
    let res: Response;
    try {
      res = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new PayoutProviderError(`PayPal ${path}: ${err instanceof Error ? err.message : String(err)}`, 0);
    }
    const text = await res.text();
    let json: Json = {};
    try {
      json = text ? (obj(JSON.parse(text)) ?? {}) : {};
    } catch {
      json = { message: text.slice(0, 300) };
    }
    return { status: res.status, json };
  }

  /** An access token, from the cache while it is good, else one fetched (callers at the same moment share it). */
  accessToken(): Promise<string> {
    if (this.#token && this.#token.expiresAt > this.#now()) return Promise.resolve(this.#token.value);
    this.#tokenRequest ??= this.#fetchToken().finally(() => (this.#tokenRequest = null));
    return this.#tokenRequest;
  }

  async #fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const res = await this.#send('POST', '/v1/oauth2/token', {
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const token = str(res.json.access_token);
    if (res.status !== 200 || !token) throw new PayoutProviderError(`PayPal refused the client credentials (${res.status}): ${errorText(res.json)}`, res.status);
    const lifetimeMs = (typeof res.json.expires_in === 'number' ? res.json.expires_in : 0) * 1000;
    this.#token = { value: token, expiresAt: this.#now() + Math.max(0, lifetimeMs - TOKEN_MARGIN_MS) };
    return token;
  }

  /** An authorised call; a 401 (a token PayPal dropped early) fetches a new token and tries once more. */
  async #call(method: 'GET' | 'POST', path: string, body?: string, extra: Record<string, string> = {}): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const res = await this.#send(method, path, {
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
        body,
      });
      if (res.status !== 401 || attempt > 0) return res;
      this.#token = null;
    }
  }

  async submit(request: PayoutRequest): Promise<PayoutSubmission> {
    const d = request.destination;
    if (d.method !== 'paypal') throw new TypeError(`payout ${request.payoutId} is not a PayPal payout`);
    const body = JSON.stringify({
      sender_batch_header: {
        sender_batch_id: request.idempotencyKey,
        recipient_type: 'EMAIL',
        email_subject: 'You have a payout from FrameMerch',
        email_message: `Your FrameMerch creator earnings for ${request.period.slice(0, 7)}.`,
      },
      items: [
        {
          recipient_type: 'EMAIL',
          amount: { value: centsToDollars(request.amountCents), currency: request.currency },
          receiver: d.paypalEmail,
          note: `FrameMerch creator earnings for ${request.period.slice(0, 7)}`,
          sender_item_id: request.payoutId,
        },
      ],
    });
    // PayPal-Request-Id makes a resent request answer the first one's reply; sender_batch_id is what guarantees one payment.
    const res = await this.#call('POST', '/v1/payments/payouts', body, { 'paypal-request-id': request.idempotencyKey });
    if (res.status === 200 || res.status === 201) {
      const batch = obj(res.json.batch_header);
      const reference = str(batch?.payout_batch_id);
      if (!reference) throw new PayoutProviderError('PayPal answered the payout without a payout_batch_id', 502);
      if (str(batch?.batch_status) === 'DENIED') return { providerReference: reference, status: 'failed', failureReason: 'PayPal denied the payout batch' };
      return { providerReference: reference, status: 'processing' };
    }
    if (isDuplicateBatch(res)) return this.#alreadySubmitted(request, res.json);
    const reason = `PayPal refused the payout (${res.status}): ${errorText(res.json)}`;
    // Its keys, its balance, its limits or its availability: not the payout's fault, so worth asking again with the same key.
    if (res.status >= 500 || res.status === 429 || res.status === 401 || res.status === 403 || str(res.json.name) === 'INSUFFICIENT_FUNDS') {
      throw new PayoutProviderError(reason, res.status);
    }
    // A refusal of this payout (a receiver PayPal will not pay, a malformed amount): nothing was sent.
    return { providerReference: request.idempotencyKey, status: 'failed', failureReason: reason };
  }

  /**
   * The batch PayPal already has for this sender_batch_id, through the link in its refusal.
   * Without a link to follow the batch is still PayPal's under this key: its webhooks name the
   * sender_batch_id, so the payout stays processing until they come.
   */
  async #alreadySubmitted(request: PayoutRequest, refusal: Json): Promise<PayoutSubmission> {
    const batchId = linkedBatchId(refusal);
    if (!batchId) return { providerReference: request.idempotencyKey, status: 'processing' };
    return this.batch(batchId);
  }

  /** A batch's state, as a submission (its one item decides paid or failed). */
  async batch(payoutBatchId: string): Promise<PayoutSubmission> {
    const res = await this.#call('GET', `/v1/payments/payouts/${encodeURIComponent(payoutBatchId)}`);
    if (res.status !== 200) throw new PayoutProviderError(`PayPal payout batch ${payoutBatchId} could not be read (${res.status}): ${errorText(res.json)}`, res.status);
    return submissionOfBatch(res.json, payoutBatchId);
  }

  /**
   * PayPal's own check of a webhook: POST /v1/notifications/verify-webhook-signature with the
   * transmission headers, PAYPAL_WEBHOOK_ID and the event exactly as it arrived (spliced in as
   * raw JSON, since re-serialising it could change the bytes PayPal signed).
   */
  async verifyWithPayPal(rawBody: Buffer, headers: PayPalWebhookHeaders): Promise<boolean> {
    const fields = {
      auth_algo: header(headers, 'paypal-auth-algo'),
      cert_url: header(headers, 'paypal-cert-url'),
      transmission_id: header(headers, 'paypal-transmission-id'),
      transmission_sig: header(headers, 'paypal-transmission-sig'),
      transmission_time: header(headers, 'paypal-transmission-time'),
    };
    if (Object.values(fields).some((v) => !v)) return false;
    const text = rawBody.toString('utf8');
    try {
      if (!obj(JSON.parse(text))) return false;
    } catch {
      return false;
    }
    const body = `${JSON.stringify({ ...fields, webhook_id: this.options.webhookId }).slice(0, -1)},"webhook_event":${text}}`;
    const res = await this.#call('POST', '/v1/notifications/verify-webhook-signature', body);
    if (res.status !== 200) throw new PayoutProviderError(`PayPal could not verify a webhook (${res.status}): ${errorText(res.json)}`, res.status);
    return res.json.verification_status === 'SUCCESS';
  }

  /** A webhook verified (by PayPal, or the injected verifier) and read; null for an event that decides nothing. */
  receiveWebhook(rawBody: Buffer, headers: PayPalWebhookHeaders): Promise<PayoutEvent | null> {
    return receivePayPalWebhook(rawBody, headers, this.verifyWebhook);
  }
}

/**
 * Verifies a PayPal-format webhook with `verify`, then reads it. Throws PayoutWebhookError for a
 * signature that does not hold or a body that is not a PayPal event; answers null for an event
 * that decides no payout (a batch accepted, an item held or unclaimed, another event type).
 */
export async function receivePayPalWebhook(rawBody: Buffer, headers: PayPalWebhookHeaders, verify: PayPalWebhookVerifier): Promise<PayoutEvent | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new PayoutWebhookError('The body is not JSON.', 'malformed');
  }
  if (!(await verify(rawBody, headers))) throw new PayoutWebhookError('The PayPal webhook signature could not be verified.', 'signature');
  return payoutEventFromPayPal(parsed);
}

/**
 * A PayPal Payouts webhook event as a PayoutEvent, or null when it decides nothing. Item events
 * decide: SUCCEEDED is paid; FAILED, BLOCKED, DENIED, RETURNED, REFUNDED, REVERSED and CANCELED
 * are failed (RETURNED: an unclaimed payment given back after 30 days). UNCLAIMED and HELD are
 * not final. Of the batch events only DENIED decides (nothing in the batch was paid); a batch's
 * SUCCESS only says PayPal has processed it, and its item's own event says how that went.
 * Throws PayoutWebhookError for something that is not a PayPal event.
 */
export function payoutEventFromPayPal(event: unknown): PayoutEvent | null {
  const e = obj(event);
  const id = str(e?.id);
  const type = str(e?.event_type);
  const resource = obj(e?.resource);
  if (!e || !id || id.length > 255 || !type || !resource) throw new PayoutWebhookError('Not a PayPal webhook event.', 'malformed');
  const occurredAt = (value: unknown) => {
    const t = Date.parse(str(value) ?? '');
    return new Date(Number.isNaN(t) ? Date.parse(str(e.create_time) ?? '') || Date.now() : t);
  };

  const item = /^PAYMENT\.PAYOUTS-ITEM\.([A-Z_]+)$/.exec(type);
  if (item) {
    const state = item[1]!;
    const reference = str(resource.payout_batch_id);
    if (!reference) throw new PayoutWebhookError('A payout item event without its payout_batch_id.', 'malformed');
    const base = { eventId: id, providerReference: reference, idempotencyKey: str(resource.sender_batch_id) ?? '', occurredAt: occurredAt(resource.time_processed) };
    if (state === 'SUCCEEDED') return { ...base, status: 'paid' };
    if (ITEM_FAILED.has(state)) return { ...base, status: 'failed', failureReason: itemFailure(resource, state) };
    return null;
  }

  const batch = /^PAYMENT\.PAYOUTSBATCH\.([A-Z_]+)$/.exec(type);
  if (batch) {
    const head = obj(resource.batch_header);
    const reference = str(head?.payout_batch_id);
    if (!head || !reference) throw new PayoutWebhookError('A payout batch event without its batch_header.', 'malformed');
    if (batch[1] !== 'DENIED') return null;
    const sender = obj(head.sender_batch_header);
    return {
      eventId: id,
      providerReference: reference,
      idempotencyKey: str(sender?.sender_batch_id) ?? '',
      status: 'failed',
      failureReason: 'PayPal denied the payout batch',
      occurredAt: occurredAt(head.time_completed ?? head.time_created),
    };
  }
  return null;
}

/* ---- The embedded provider's PayPal-format signature ---- */

/** The auth algorithm the embedded payout provider names in its PayPal-format webhooks. */
export const EMBEDDED_PAYPAL_AUTH_ALGO = 'FM-HMAC-SHA256';
/** The webhook id the embedded provider's events are signed for. */
export const EMBEDDED_PAYPAL_WEBHOOK_ID = 'WH-EMBEDDED-PAYOUTS';
/** How far from now the transmission time of an embedded event may be, either way. */
export const EMBEDDED_PAYPAL_TOLERANCE_SECONDS = 300;

/** PayPal's signed string: transmission id, time, webhook id and the body's CRC32, joined by '|'. */
function signedString(transmissionId: string, transmissionTime: string, body: Buffer | string): string {
  return `${transmissionId}|${transmissionTime}|${EMBEDDED_PAYPAL_WEBHOOK_ID}|${crc32(body)}`;
}

/**
 * The headers of an embedded PayPal-format webhook: PayPal's transmission headers, the
 * signature an HMAC-SHA256 (with the app's embedded-payouts key) of the string PayPal signs.
 */
export function signEmbeddedPayPalWebhook(body: string, secret: string, now = Date.now()): Record<string, string> {
  const transmissionId = randomUUID();
  const transmissionTime = new Date(now).toISOString();
  const signature = createHmac('sha256', secret).update(signedString(transmissionId, transmissionTime, body)).digest('base64');
  return {
    'paypal-auth-algo': EMBEDDED_PAYPAL_AUTH_ALGO,
    'paypal-transmission-id': transmissionId,
    'paypal-transmission-time': transmissionTime,
    'paypal-transmission-sig': signature,
    'paypal-cert-url': 'embedded',
  };
}

/** Whether a webhook claims to be the embedded provider's (it is then checked by its key only). */
export function isEmbeddedPayPalWebhook(headers: PayPalWebhookHeaders): boolean {
  return header(headers, 'paypal-auth-algo') === EMBEDDED_PAYPAL_AUTH_ALGO;
}

/** The verifier of the embedded provider's events: its HMAC, and a transmission time within 300 s of now. */
export function embeddedPayPalVerifier(secret: string, now: () => number = Date.now): PayPalWebhookVerifier {
  return async (rawBody, headers) => {
    const id = header(headers, 'paypal-transmission-id');
    const time = header(headers, 'paypal-transmission-time');
    const sig = header(headers, 'paypal-transmission-sig');
    if (!isEmbeddedPayPalWebhook(headers) || !id || !time || !sig) return false;
    const at = Date.parse(time);
    if (Number.isNaN(at) || Math.abs(now() - at) > EMBEDDED_PAYPAL_TOLERANCE_SECONDS * 1000) return false;
    const expected = createHmac('sha256', secret).update(signedString(id, time, rawBody)).digest();
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}

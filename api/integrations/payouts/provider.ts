/**
 * Sending money to creators: one interface for every way a creator is paid (PayPal Payouts,
 * Stripe Connect transfers, ACH through a NACHA file), each with a real adapter and, without
 * keys, the embedded payout provider as its twin. The payout run (modules/payouts) hands a
 * provider one payout at a time; outcomes come back as signed webhooks in the provider's own
 * format, which the payouts module verifies and turns into PayoutEvents, so one code path
 * handles the real providers and the twin alike.
 */
import type { PayoutMethodName } from '../../../shared/schemas/payouts.ts';

/** Where a payout goes, opened from the creator's setup just before it is sent; never logged. */
export type PayoutDestination =
  | { method: 'paypal'; paypalEmail: string }
  | { method: 'stripe_connect'; accountId: string }
  | { method: 'ach'; routingNumber: string; accountNumber: string; accountType: 'checking' | 'savings'; holderName: string };

export interface PayoutRequest {
  /** The payouts row this sends. */
  payoutId: string;
  /**
   * One per creator and period (`${userId}:${period}`), and per attempt when an admin sends a
   * failed payout again (`${userId}:${period}:retry${n}`): the provider's own idempotency key
   * (PayPal's sender_batch_id, Stripe's Idempotency-Key), so a repeated request cannot pay twice.
   */
  idempotencyKey: string;
  userId: string;
  /** The month paid for, as its first day (YYYY-MM-01). */
  period: string;
  amountCents: number;
  currency: 'USD';
  destination: PayoutDestination;
}

/** What the provider said when it took the request. Final outcomes usually arrive later as events. */
export interface PayoutSubmission {
  /** The provider's id for this payout (PayPal batch id, Stripe transfer id, NACHA trace number). */
  providerReference: string;
  status: 'processing' | 'paid' | 'failed';
  failureReason?: string;
}

/** A final outcome, from a verified webhook (or an admin confirming a NACHA file's upload). */
export interface PayoutEvent {
  /** The provider's event id: an event applied once is ignored when it comes again. */
  eventId: string;
  providerReference: string;
  idempotencyKey: string;
  status: 'paid' | 'failed';
  failureReason?: string;
  occurredAt: Date;
}

export interface PayoutProvider {
  readonly method: PayoutMethodName;
  /** 'embedded' for the twin, else the real service's name. */
  readonly kind: 'embedded' | 'paypal' | 'stripe' | 'nacha';
  /** Sends one payout; the same idempotencyKey twice must not pay twice. */
  submit(request: PayoutRequest): Promise<PayoutSubmission>;
}

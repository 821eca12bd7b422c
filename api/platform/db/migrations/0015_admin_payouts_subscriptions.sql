-- The admin portal's payouts and subscriptions (api/modules/payouts admin.ts,
-- api/modules/subscriptions admin list).
--  - payouts.failure_reason: why a failed payout failed, as the provider (or the run) said it,
--    runs of digits masked; null unless the payout is failed. Payouts that failed before this
--    column existed keep null.
--  - payouts.attempt: how many times the payout was sent. An admin's retry of a failed payout
--    sends it again under a new provider request (its idempotency key names the attempt), so the
--    failed attempt can never be paid as well, and a late event about it changes nothing.
ALTER TABLE payouts
  ADD COLUMN failure_reason text CHECK (failure_reason IS NULL OR length(failure_reason) BETWEEN 1 AND 500),
  ADD COLUMN attempt integer NOT NULL DEFAULT 1 CHECK (attempt BETWEEN 1 AND 9999);

-- Payouts newest first (created_at DESC, id DESC keyset): all, a period's, a status's. The
-- period index also serves the runs list (one row per period, newest period first).
CREATE INDEX payouts_newest ON payouts (created_at DESC, id DESC);
CREATE INDEX payouts_period_newest ON payouts (period DESC, created_at DESC, id DESC);
CREATE INDEX payouts_status_newest ON payouts (status, created_at DESC, id DESC);

-- Subscriptions newest first: all, a tier's, a status's.
CREATE INDEX user_subscriptions_newest ON user_subscriptions (created_at DESC, id DESC);
CREATE INDEX user_subscriptions_tier_newest ON user_subscriptions (tier, created_at DESC, id DESC);
CREATE INDEX user_subscriptions_status_newest ON user_subscriptions (status, created_at DESC, id DESC);

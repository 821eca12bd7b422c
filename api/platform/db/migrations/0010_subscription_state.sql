-- A creator's subscription as the payment provider's events leave it (api/modules/subscriptions,
-- rules.ts): the row is a last-writer-wins register over the snapshots the events carry, so
-- beside the state it keeps the ordering watermark of the snapshot it was made from.
--  - stripe_status: Stripe's own status word (status has no room for unpaid, paused or
--    incomplete_expired); null until an event or a verified session has set the row.
--  - cancel_at_period_end: set to end at the period's end (still Pro until then).
--  - event_order: rules.ts encodeOrderKey of the winning snapshot, compared in byte order
--    (COLLATE "C", the order the key is built for); null until an event has set the row.
--  - subscription_created_at: when the subscription itself was created, once an event has said
--    (orders one subscription against the next when a creator subscribes again).
ALTER TABLE user_subscriptions
  ADD COLUMN stripe_status text
    CHECK (stripe_status IN ('trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused')),
  ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false,
  ADD COLUMN event_order text COLLATE "C" CHECK (event_order IS NULL OR length(event_order) BETWEEN 1 AND 400),
  ADD COLUMN subscription_created_at timestamptz;

CREATE INDEX user_subscriptions_customer ON user_subscriptions (stripe_customer_id) WHERE stripe_customer_id IS NOT NULL;

-- Subscription checkouts already processed (by their checkout.session.completed event or by the
-- success page's verified activation): /subscription-success answers these at once, to their own
-- user only. A session belongs to the user it was opened for, never to whoever presents its id.
CREATE TABLE subscription_checkout_sessions (
  session_id text PRIMARY KEY CHECK (length(session_id) BETWEEN 1 AND 255),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  stripe_subscription_id text CHECK (stripe_subscription_id IS NULL OR length(stripe_subscription_id) BETWEEN 1 AND 255),
  stripe_customer_id text CHECK (stripe_customer_id IS NULL OR length(stripe_customer_id) BETWEEN 1 AND 255),
  processed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscription_checkout_sessions_user ON subscription_checkout_sessions (user_id);

-- The embedded payment provider's subscriptions (its stand-in for Stripe Billing): checkout
-- sessions in subscription mode, customers with their saved test card, subscriptions run on
-- the app's clock (trial, monthly renewals, failed-payment retries, cancellation at the
-- period's end), their invoices, and the capability links to the subscriber's manage page
-- (its stand-in for Stripe's customer portal). Like the other embedded_* tables these are the
-- provider's own state: nothing here references the app's tables. Times that follow the
-- app's clock (which TEST_CLOCK lets an admin move forward) are written by the provider;
-- created_at / updated_at are the database's own time.

-- A customer and its default card. Never the card number: only what Stripe shows of it
-- (brand, last 4, expiry) and how the test card behaves when charged later
-- (4000 0000 0000 0341 attaches but every charge fails).
CREATE TABLE embedded_customers (
  id text PRIMARY KEY CHECK (id ~ '^cus_[A-Za-z0-9_]{6,80}$'),
  email text,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  payment_method_id text CHECK (payment_method_id IS NULL OR payment_method_id ~ '^pm_[A-Za-z0-9_]{6,80}$'),
  card_brand text,
  card_last4 text CHECK (card_last4 IS NULL OR card_last4 ~ '^[0-9]{4}$'),
  card_exp_month integer CHECK (card_exp_month IS NULL OR card_exp_month BETWEEN 1 AND 12),
  card_exp_year integer,
  card_charges_fail boolean NOT NULL DEFAULT false,
  created timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Checkout sessions in subscription mode, served by the same hosted page (/pay/{cs_...}) as
-- the payment-mode sessions of embedded_payment_sessions (ids never collide: both are random).
CREATE TABLE embedded_subscription_sessions (
  id text PRIMARY KEY CHECK (id ~ '^cs_[A-Za-z0-9_]{10,80}$'),
  -- The same key always answers the same session.
  idempotency_key text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
  -- The signed-in user it was opened for (metadata.user_id and client_reference_id).
  user_id text NOT NULL,
  -- Given when the user already is a customer; else made when the session completes.
  customer_id text REFERENCES embedded_customers (id),
  customer_email text,
  subscription_id text,
  product_name text NOT NULL,
  unit_amount bigint NOT NULL CHECK (unit_amount > 0),
  currency text NOT NULL DEFAULT 'usd',
  trial_days integer NOT NULL CHECK (trial_days >= 0 AND trial_days <= 730),
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  declined_attempts integer NOT NULL DEFAULT 0 CHECK (declined_attempts >= 0),
  expires_at timestamptz NOT NULL,
  -- On the app's clock.
  created timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX embedded_subscription_sessions_open ON embedded_subscription_sessions (expires_at) WHERE status = 'open';

CREATE TABLE embedded_subscriptions (
  id text PRIMARY KEY CHECK (id ~ '^sub_[A-Za-z0-9_]{6,80}$'),
  customer_id text NOT NULL REFERENCES embedded_customers (id),
  status text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'canceled')),
  item_id text NOT NULL,
  price_id text NOT NULL,
  product_id text NOT NULL,
  product_name text NOT NULL,
  unit_amount bigint NOT NULL CHECK (unit_amount > 0),
  currency text NOT NULL DEFAULT 'usd',
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Billing: period n >= 1 runs from anchor + (n - 1) months to anchor + n months; cycle 0 is the trial.
  billing_cycle_anchor timestamptz NOT NULL,
  cycle integer NOT NULL DEFAULT 0 CHECK (cycle >= 0),
  trial_start timestamptz,
  trial_end timestamptz,
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz NOT NULL,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  canceled_at timestamptz,
  ended_at timestamptz,
  cancellation_reason text,
  latest_invoice_id text,
  -- When the clock next has something to do (the period's end, or a payment retry); null once ended.
  next_action_at timestamptz,
  -- The `created` (seconds) of the last event about it: its events' times only increase.
  last_event_created bigint NOT NULL DEFAULT 0,
  created timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (current_period_end > current_period_start)
);
CREATE INDEX embedded_subscriptions_due ON embedded_subscriptions (next_action_at) WHERE next_action_at IS NOT NULL;
CREATE INDEX embedded_subscriptions_customer ON embedded_subscriptions (customer_id);

CREATE TABLE embedded_invoices (
  id text PRIMARY KEY CHECK (id ~ '^in_[A-Za-z0-9_]{6,80}$'),
  subscription_id text NOT NULL REFERENCES embedded_subscriptions (id),
  customer_id text NOT NULL REFERENCES embedded_customers (id),
  status text NOT NULL CHECK (status IN ('open', 'paid', 'void', 'uncollectible')),
  billing_reason text NOT NULL CHECK (billing_reason IN ('subscription_create', 'subscription_cycle')),
  amount_due bigint NOT NULL CHECK (amount_due >= 0),
  amount_paid bigint NOT NULL DEFAULT 0 CHECK (amount_paid >= 0),
  currency text NOT NULL DEFAULT 'usd',
  attempt_count integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  next_payment_attempt timestamptz,
  -- Stripe's invoice period (for a renewal, the period just ended) and its line's (the period billed).
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  line_period_start timestamptz NOT NULL,
  line_period_end timestamptz NOT NULL,
  paid_at timestamptz,
  created timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- One invoice per period billed: a repeated tick never bills twice.
  UNIQUE (subscription_id, line_period_start)
);

-- The manage page's capability links (/pay/manage/{token}), one per request, as Stripe's portal sessions.
CREATE TABLE embedded_portal_sessions (
  token text PRIMARY KEY CHECK (token ~ '^[A-Za-z0-9_-]{20,100}$'),
  id text NOT NULL UNIQUE CHECK (id ~ '^bps_[A-Za-z0-9_]{6,80}$'),
  customer_id text NOT NULL REFERENCES embedded_customers (id),
  return_url text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The payout adapters' own state (api/integrations/payouts): the embedded payout provider's
-- payouts, the events it owes the app's webhooks and its Stripe Connect accounts; and the ACH
-- entries waiting in a period's NACHA file. These belong to the outside services (or stand in
-- for them): no foreign key points into the app's tables.

-- The embedded payout provider: one payout per idempotency key (a repeated submit answers the
-- first), settled on its clock at settle_at. `destination` is a summary for people (a PayPal
-- email, a Stripe account id, an account type and the last 4 digits); never a bank number.
CREATE TABLE embedded_payouts (
  reference text PRIMARY KEY CHECK (length(reference) BETWEEN 8 AND 64),
  method text NOT NULL CHECK (method IN ('paypal', 'stripe_connect', 'ach')),
  idempotency_key text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  payout_id text NOT NULL,
  user_id text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
  destination text NOT NULL CHECK (length(destination) BETWEEN 1 AND 400),
  -- What the settlement will be, decided when the payout was taken (a reserved test address fails).
  outcome text NOT NULL CHECK (outcome IN ('paid', 'failed')),
  failure_reason text,
  status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'paid', 'failed')),
  settle_at timestamptz NOT NULL,
  settled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'processing') = (settled_at IS NULL)),
  CHECK (status = 'processing' OR status = outcome)
);
CREATE INDEX embedded_payouts_due ON embedded_payouts (settle_at) WHERE status = 'processing';

-- Each outcome (and each Connect account change) is written with its event in one transaction,
-- then delivered to the app's webhook in the format of the service it stands in for, retried
-- with backoff until the app accepts it.
CREATE TABLE embedded_payout_events (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 8 AND 100),
  format text NOT NULL CHECK (format IN ('paypal', 'stripe', 'ach')),
  type text NOT NULL,
  payload jsonb NOT NULL,
  delivered_at timestamptz,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX embedded_payout_events_due ON embedded_payout_events (next_attempt_at) WHERE delivered_at IS NULL;

-- The embedded provider's Stripe Connect accounts: one per user, onboarded on its own page
-- (/connect/onboarding/<link token>).
CREATE TABLE embedded_connect_accounts (
  id text PRIMARY KEY CHECK (id ~ '^acct_[A-Za-z0-9]{16,40}$'),
  user_id text NOT NULL UNIQUE,
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'restricted')),
  link_token text NOT NULL UNIQUE CHECK (length(link_token) BETWEEN 20 AND 100),
  return_url text NOT NULL,
  refresh_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- ACH payouts by NACHA file: one entry per idempotency key, in the file of its period. The
-- receiver's routing and account numbers are sealed (platform/crypto/sealed-values.ts, the trace
-- number as associated data) and opened only to write the file.
CREATE SEQUENCE nacha_trace_seq;
CREATE TABLE nacha_entries (
  trace_number text PRIMARY KEY CHECK (trace_number ~ '^[0-9]{15}$'),
  period date NOT NULL CHECK (extract(day FROM period) = 1),
  payout_id text NOT NULL,
  user_id text NOT NULL,
  idempotency_key text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  transaction_code smallint NOT NULL CHECK (transaction_code IN (22, 32)),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 9999999999),
  receiver_name text NOT NULL CHECK (length(receiver_name) BETWEEN 1 AND 200),
  destination_sealed text NOT NULL,
  account_last4 text NOT NULL CHECK (account_last4 ~ '^[0-9]{1,4}$'),
  status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'paid')),
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  CHECK ((status = 'paid') = (confirmed_at IS NOT NULL))
);
CREATE INDEX nacha_entries_period ON nacha_entries (period, trace_number);

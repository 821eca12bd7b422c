-- Checkout, payments and fulfilment: what the order needs beyond 0002, the embedded payment
-- provider's and print-on-demand simulator's own state, and server-made secrets.

-- Secrets the server makes for itself on first start (signing keys of the embedded providers,
-- the key that signs buyers' order links). First writer wins, so every process agrees.
CREATE TABLE app_secrets (
  name text PRIMARY KEY CHECK (name ~ '^[a-z_.-]{1,60}$'),
  value text NOT NULL CHECK (length(value) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE orders
  ADD COLUMN shipping_method text NOT NULL DEFAULT 'Standard',
  ADD COLUMN tracking_number text,
  ADD COLUMN refunded_at timestamptz;

-- The embedded payment provider's hosted checkout sessions (Stripe's keep this state themselves).
CREATE TABLE embedded_payment_sessions (
  id text PRIMARY KEY CHECK (id ~ '^cs_[A-Za-z0-9_]{10,80}$'),
  order_id uuid NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
  payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid', 'refunded')),
  amount_total bigint NOT NULL CHECK (amount_total >= 0),
  currency text NOT NULL DEFAULT 'usd',
  line_items jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  customer_email text,
  payment_intent_id text UNIQUE,
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  declined_attempts integer NOT NULL DEFAULT 0 CHECK (declined_attempts >= 0),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Events the embedded payment provider owes the webhook endpoint, delivered with retries
-- like Stripe's own, so a delivery lost to a restart is delivered later.
CREATE TABLE embedded_payment_events (
  id text PRIMARY KEY CHECK (id ~ '^evt_[A-Za-z0-9_]{10,80}$'),
  type text NOT NULL,
  payload jsonb NOT NULL,
  delivered_at timestamptz,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX embedded_payment_events_due ON embedded_payment_events (next_attempt_at) WHERE delivered_at IS NULL;

-- The embedded print-on-demand simulator's orders (Printful keeps these itself).
CREATE TABLE embedded_pod_orders (
  id text PRIMARY KEY CHECK (id ~ '^pod_[A-Za-z0-9_]{6,80}$'),
  external_id text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'inprocess', 'fulfilled', 'delivered', 'canceled')),
  recipient jsonb NOT NULL,
  items jsonb NOT NULL,
  tracking_number text,
  tracking_url text,
  next_step_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX embedded_pod_orders_due ON embedded_pod_orders (next_step_at) WHERE status IN ('pending', 'inprocess', 'fulfilled');

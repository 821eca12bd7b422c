-- The shop: catalogue, merch products with stored screenshots, orders, money movements,
-- and the plumbing that makes side effects exactly-once (webhook events, outbox, jobs).

CREATE TABLE shipping_buckets (
  bucket text PRIMARY KEY CHECK (bucket ~ '^[a-z-]{1,40}$'),
  first_item_cents integer NOT NULL CHECK (first_item_cents >= 0),
  additional_item_cents integer NOT NULL CHECK (additional_item_cents >= 0),
  packs_separately boolean NOT NULL
);

CREATE TABLE print_targets (
  target text PRIMARY KEY,
  min_width_px integer NOT NULL CHECK (min_width_px > 0),
  min_height_px integer NOT NULL CHECK (min_height_px > 0)
);

CREATE TABLE catalogue_products (
  sku text PRIMARY KEY CHECK (sku ~ '^[a-z0-9-]{1,60}$'),
  name text NOT NULL,
  category text NOT NULL
    CHECK (category IN ('womens', 'mens', 'kids', 'mugs', 'hats', 'bags', 'pets', 'stickers', 'misc', 'thumbnails')),
  price_cents integer NOT NULL CHECK (price_cents > 0),
  base_cost_cents integer NOT NULL CHECK (base_cost_cents >= 0),
  sizes text[] NOT NULL CHECK (cardinality(sizes) > 0),
  size_surcharges_cents jsonb NOT NULL DEFAULT '{}'::jsonb,
  colours text[] NOT NULL CHECK (cardinality(colours) > 0),
  handle_colours text[] NOT NULL DEFAULT '{}',
  print_area_text text NOT NULL,
  print_areas jsonb NOT NULL,
  pod_catalog_id integer,
  shipping_bucket text NOT NULL REFERENCES shipping_buckets (bucket),
  sort_order integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (base_cost_cents <= price_cents)
);
CREATE INDEX catalogue_products_category ON catalogue_products (category, sort_order);

-- A product page made from a video's frames. Linked to the video and so to its creator by id.
CREATE TABLE merch_products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  video_id uuid REFERENCES videos (id) ON DELETE SET NULL,
  creator_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  category text
    CHECK (category IN ('womens', 'mens', 'kids', 'mugs', 'hats', 'bags', 'pets', 'stickers', 'misc', 'thumbnails')),
  video_title text NOT NULL DEFAULT '',
  creator_name text NOT NULL DEFAULT '',
  screenshot_timestamp_ms integer CHECK (screenshot_timestamp_ms >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merch_products_video ON merch_products (video_id);
CREATE INDEX merch_products_creator ON merch_products (creator_id);

CREATE TABLE merch_screenshots (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merch_product_id uuid NOT NULL REFERENCES merch_products (id) ON DELETE CASCADE,
  -- Position 0 is the thumbnail when the product has one; at most 6 captures follow.
  position smallint NOT NULL CHECK (position BETWEEN 0 AND 6),
  kind text NOT NULL CHECK (kind IN ('thumbnail', 'capture', 'crop')),
  storage_key text NOT NULL UNIQUE,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp')),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merch_product_id, position)
);

CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'paid', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled', 'refunded')),
  customer_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  customer_email text,
  shipping_zip text NOT NULL CHECK (length(btrim(shipping_zip)) BETWEEN 1 AND 20),
  shipping_country text NOT NULL CHECK (shipping_country IN ('US', 'CA', 'GB', 'AU', 'DE')),
  shipping_name text,
  shipping_address jsonb,
  currency text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
  subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
  shipping_cents bigint NOT NULL CHECK (shipping_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  sms_consent boolean NOT NULL DEFAULT false,
  -- A client-chosen key makes a repeated checkout request return the same order.
  idempotency_key text UNIQUE,
  payment_provider text CHECK (payment_provider IN ('stripe', 'embedded')),
  payment_session_id text UNIQUE,
  payment_intent_id text,
  fulfilment_provider text CHECK (fulfilment_provider IN ('printful', 'embedded')),
  fulfilment_order_id text,
  tracking_url text,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (total_cents = subtotal_cents + shipping_cents)
);
CREATE INDEX orders_status ON orders (status, created_at);
CREATE UNIQUE INDEX orders_fulfilment ON orders (fulfilment_provider, fulfilment_order_id) WHERE fulfilment_order_id IS NOT NULL;

CREATE TABLE order_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position smallint NOT NULL CHECK (position >= 0),
  sku text NOT NULL REFERENCES catalogue_products (sku),
  product_name text NOT NULL,
  merch_product_id uuid REFERENCES merch_products (id) ON DELETE SET NULL,
  screenshot_id uuid REFERENCES merch_screenshots (id) ON DELETE SET NULL,
  video_id uuid REFERENCES videos (id) ON DELETE SET NULL,
  creator_id uuid REFERENCES users (id) ON DELETE SET NULL,
  colour text NOT NULL,
  handle_colour text,
  size text NOT NULL,
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 100),
  unit_price_cents integer NOT NULL CHECK (unit_price_cents > 0),
  size_surcharge_cents integer NOT NULL DEFAULT 0 CHECK (size_surcharge_cents >= 0),
  base_cost_cents integer NOT NULL CHECK (base_cost_cents >= 0),
  line_total_cents bigint NOT NULL,
  print_file_key text,
  UNIQUE (order_id, position),
  CHECK (base_cost_cents <= unit_price_cents),
  CHECK (line_total_cents = (unit_price_cents + size_surcharge_cents)::bigint * quantity)
);
CREATE INDEX order_items_order ON order_items (order_id);
CREATE INDEX order_items_creator ON order_items (creator_id);

CREATE TABLE order_status_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  from_status text,
  to_status text NOT NULL
    CHECK (to_status IN ('pending', 'paid', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled', 'refunded')),
  reason text NOT NULL DEFAULT '',
  event_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_status_history_order ON order_status_history (order_id, id);

CREATE TABLE payouts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  fee_cents bigint NOT NULL DEFAULT 0 CHECK (fee_cents >= 0 AND fee_cents <= amount_cents),
  method text NOT NULL REFERENCES payment_method_options (method_name),
  -- The month the payout settles (its first day); one payout per creator per month.
  period date NOT NULL CHECK (extract(day FROM period) = 1),
  payout_date date NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'paid', 'failed')),
  provider_reference text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, period)
);

-- A creator's share of one order item, or the reversal of it after a refund.
CREATE TABLE earnings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  order_item_id uuid REFERENCES order_items (id) ON DELETE RESTRICT,
  kind text NOT NULL DEFAULT 'sale' CHECK (kind IN ('sale', 'reversal')),
  amount_cents bigint NOT NULL,
  margin_cents bigint NOT NULL,
  creator_share_cents bigint NOT NULL,
  source text NOT NULL DEFAULT 'Product Sale',
  payout_id uuid REFERENCES payouts (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_item_id, kind),
  CHECK ((kind = 'sale' AND amount_cents >= 0 AND margin_cents >= 0 AND creator_share_cents >= 0
          AND creator_share_cents <= margin_cents)
      OR (kind = 'reversal' AND amount_cents <= 0 AND margin_cents <= 0 AND creator_share_cents <= 0
          AND creator_share_cents >= margin_cents))
);
CREATE INDEX earnings_user ON earnings (user_id, created_at DESC);

CREATE TABLE processed_webhook_events (
  provider text NOT NULL CHECK (provider IN ('stripe', 'printful')),
  event_id text NOT NULL,
  event_type text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);

CREATE TABLE email_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address text NOT NULL CHECK (to_address LIKE '%_@_%'),
  template text NOT NULL,
  subject text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error text,
  dedupe_key text UNIQUE,
  send_after timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_outbox_due ON email_outbox (send_after) WHERE status = 'pending';

CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind ~ '^[a-z_.]{1,60}$'),
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  locked_by text,
  last_error text,
  dedupe_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_due ON jobs (run_after) WHERE status = 'queued';

-- Core schema: people, videos, subscriptions, administration, creator money.
-- Money is integer cents (bigint), never negative where a negative is meaningless.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (email = btrim(email) AND email LIKE '%_@_%' AND length(email) <= 254),
  email_verified boolean NOT NULL DEFAULT false,
  -- The channel slug: lowercase alphanumerics, unique whatever the case.
  username text NOT NULL CHECK (username ~ '^[a-z0-9]{1,40}$'),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
  profile_image_url text,
  cover_image_url text,
  bio text NOT NULL DEFAULT '' CHECK (length(bio) <= 2000),
  role text NOT NULL DEFAULT 'creator' CHECK (role IN ('creator', 'customer')),
  is_admin boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  password_hash text,
  oidc_issuer text,
  oidc_subject text,
  -- Payout fields.
  total_earnings_cents bigint NOT NULL DEFAULT 0 CHECK (total_earnings_cents >= 0),
  pending_payout_cents bigint NOT NULL DEFAULT 0 CHECK (pending_payout_cents >= 0),
  payout_enabled boolean NOT NULL DEFAULT false,
  paypal_email text,
  last_payout_date date,
  payout_threshold_cents bigint NOT NULL DEFAULT 5000 CHECK (payout_threshold_cents >= 0),
  tax_id text,
  tax_info_verified boolean NOT NULL DEFAULT false,
  preferred_payment_method text CHECK (preferred_payment_method IN ('paypal', 'ach', 'stripe_connect')),
  ach_routing_number text CHECK (ach_routing_number ~ '^[0-9]{9}$'),
  ach_account_type text CHECK (ach_account_type IN ('checking', 'savings')),
  ach_account_number_encrypted text,
  bank_account_verified boolean NOT NULL DEFAULT false,
  stripe_connect_account_id text,
  stripe_connect_status text CHECK (stripe_connect_status IN ('pending', 'active', 'restricted', 'disabled')),
  -- Demo content carries a stable key so seeding twice never duplicates it.
  seed_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((oidc_issuer IS NULL) = (oidc_subject IS NULL))
);
CREATE UNIQUE INDEX users_email_ci ON users (lower(email));
CREATE UNIQUE INDEX users_username_ci ON users (lower(username));
CREATE UNIQUE INDEX users_oidc ON users (oidc_issuer, oidc_subject) WHERE oidc_issuer IS NOT NULL;
CREATE INDEX users_newest_creators ON users (created_at DESC, id DESC) WHERE role = 'creator' AND status = 'active';

CREATE TABLE sessions (
  -- SHA-256 of the opaque cookie token, hex; the token itself is never stored.
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  user_agent text,
  ip text,
  CHECK (expires_at > created_at)
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE videos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
  category text CHECK (category ~ '^[a-z]{1,30}$'),
  category_id integer NOT NULL DEFAULT 0 CHECK (category_id BETWEEN 0 AND 1000),
  -- Object-storage keys (bucket videos, thumbnails); URLs are derived from them.
  video_key text NOT NULL,
  thumbnail_key text,
  poster_key text,
  content_type text NOT NULL CHECK (content_type IN ('video/mp4', 'video/webm')),
  size_bytes bigint NOT NULL CHECK (size_bytes > 0),
  duration_ms integer CHECK (duration_ms > 0),
  width integer CHECK (width > 0),
  height integer CHECK (height > 0),
  view_count bigint NOT NULL DEFAULT 0 CHECK (view_count >= 0),
  verification_status text NOT NULL DEFAULT 'verified_via_supabase_auth'
    CHECK (verification_status IN ('verified_via_supabase_auth', 'pending', 'approved', 'rejected')),
  seed_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX videos_video_key ON videos (video_key);
CREATE INDEX videos_feed ON videos (created_at DESC, id DESC) WHERE verification_status <> 'rejected';
CREATE INDEX videos_feed_category ON videos (category, created_at DESC, id DESC) WHERE verification_status <> 'rejected';
CREATE INDEX videos_user ON videos (user_id, created_at DESC);

-- One row per viewer session and video, so a view counts once per session.
CREATE TABLE video_views (
  video_id uuid NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  viewer_key text NOT NULL CHECK (length(viewer_key) BETWEEN 16 AND 128),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (video_id, viewer_key)
);

CREATE TABLE user_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  tier text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'pro')),
  status text NOT NULL DEFAULT 'active'
    CHECK (status IN ('trialing', 'active', 'past_due', 'canceled', 'incomplete', 'pending_approval')),
  is_third_tier boolean NOT NULL DEFAULT false,
  trial_end timestamptz,
  current_period_start timestamptz,
  current_period_end timestamptz,
  stripe_subscription_id text UNIQUE,
  stripe_customer_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (current_period_end IS NULL OR current_period_start IS NULL OR current_period_end >= current_period_start)
);

CREATE TABLE admin_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  action_type text NOT NULL CHECK (action_type ~ '^[a-z_]{1,60}$'),
  target_type text NOT NULL CHECK (target_type IN ('user', 'video', 'subscription', 'setting', 'order', 'payout')),
  target_id text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_logs_newest ON admin_logs (created_at DESC, id DESC);

CREATE TABLE admin_settings (
  key text PRIMARY KEY CHECK (key ~ '^[a-z0-9_.]{1,100}$'),
  value jsonb NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE payment_method_options (
  method_name text PRIMARY KEY CHECK (method_name IN ('paypal', 'ach', 'stripe_connect')),
  display_name text NOT NULL,
  description text NOT NULL,
  -- Percentage fee in basis points (290 = 2.9 %), fixed fee in cents.
  fees_basis_points integer NOT NULL CHECK (fees_basis_points BETWEEN 0 AND 10000),
  fees_fixed_cents integer NOT NULL CHECK (fees_fixed_cents >= 0),
  processing_time_days integer NOT NULL CHECK (processing_time_days >= 0),
  min_payout_cents integer NOT NULL CHECK (min_payout_cents >= 0),
  is_available boolean NOT NULL DEFAULT true,
  -- ISO country codes the method serves; NULL means every country.
  countries text[],
  sort_order integer NOT NULL DEFAULT 0
);
INSERT INTO payment_method_options
  (method_name, display_name, description, fees_basis_points, fees_fixed_cents, processing_time_days, min_payout_cents, countries, sort_order)
VALUES
  ('paypal', 'PayPal Business', 'Paid to your PayPal business account.', 290, 30, 1, 5000, NULL, 1),
  ('ach', 'Direct Bank Transfer', 'ACH transfer to a US checking or savings account.', 50, 25, 3, 5000, ARRAY['US'], 2),
  ('stripe_connect', 'Stripe Connect', 'Paid through a Stripe Connect account.', 290, 30, 2, 2500, ARRAY['US', 'CA', 'GB', 'AU', 'DE', 'FR'], 3);

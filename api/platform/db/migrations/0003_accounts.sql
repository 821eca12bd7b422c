-- Accounts: sign-in flows in progress, the embedded identity provider's accounts, the
-- provider's picture on users, and money records that outlive a deleted account.

ALTER TABLE users ADD COLUMN auth_picture_url text;

-- One row per sign-in begun with the identity provider; used once, then deleted.
CREATE TABLE auth_flows (
  state text PRIMARY KEY CHECK (length(state) BETWEEN 32 AND 128),
  -- SHA-256 of the random value in the browser's flow cookie: the flow belongs to that browser.
  binding_hash text NOT NULL CHECK (binding_hash ~ '^[0-9a-f]{64}$'),
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  return_path text NOT NULL CHECK (return_path LIKE '/%'),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_flows_expiry ON auth_flows (expires_at);

-- Local accounts of the embedded identity provider (name and email a person entered).
CREATE TABLE idp_accounts (
  subject text PRIMARY KEY,
  email text NOT NULL CHECK (email LIKE '%_@_%'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX idp_accounts_email_ci ON idp_accounts (lower(email));

-- Earnings and payouts are kept for the retention period after their creator deletes the account.
ALTER TABLE earnings ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE earnings DROP CONSTRAINT earnings_user_id_fkey;
ALTER TABLE earnings ADD CONSTRAINT earnings_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE payouts ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE payouts DROP CONSTRAINT payouts_user_id_fkey;
ALTER TABLE payouts ADD CONSTRAINT payouts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;

-- The embedded identity provider's short-lived records (sessions, interactions, codes, grants),
-- in the database so that a restart or a second process does not lose a sign-in in progress.
CREATE TABLE idp_records (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  consumed_at timestamptz,
  expires_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX idp_records_grant ON idp_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX idp_records_uid ON idp_records (uid) WHERE uid IS NOT NULL;
CREATE INDEX idp_records_expiry ON idp_records (expires_at);

-- Subscription approval links (api/modules/mail: approval-links.ts, repository.ts). The link's token is
-- `{id}.{expiry}.{signature}`: the signature is an HMAC, under the server's approval key
-- (admin_settings 'mail.approval_key'), of the id, the expiry and the lower-cased address, so no
-- secret is kept here and a token cannot be made, moved to another address or given a later
-- expiry without the key.
--  - email: the address the link was sent to, lower-cased.
--  - expires_at: 24 hours after it was sent, on the app's clock (which TEST_CLOCK lets an admin
--    move forward); the same instant as the token's expiry.
--  - used_at: when the link approved its address (app's clock); a link works once. Using it is
--    one UPDATE ... WHERE used_at IS NULL AND expires_at > now, so of two uses at once exactly
--    one succeeds.
CREATE TABLE subscription_approvals (
  id uuid PRIMARY KEY,
  email text NOT NULL CHECK (email = lower(email) AND email LIKE '%_@_%' AND length(email) <= 254),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscription_approvals_email ON subscription_approvals (email);

-- Addresses approved for FrameMerch updates, each once (approving it again changes nothing):
-- recorded in the same transaction as the link's use.
CREATE TABLE subscription_approved_addresses (
  email text PRIMARY KEY CHECK (email = lower(email) AND email LIKE '%_@_%' AND length(email) <= 254),
  approved_at timestamptz NOT NULL
);

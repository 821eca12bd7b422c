-- Payment setup (issue 16): bank numbers are kept sealed (encrypted with the user id as associated
-- data, see platform/crypto/sealed-values.ts) with only their last 4 digits in the clear; the card
-- processor's email is kept apart from the PayPal one.

-- The plaintext routing number was never written by anything; sealed from now on.
ALTER TABLE users DROP COLUMN ach_routing_number;
ALTER TABLE users
  ADD COLUMN ach_routing_number_encrypted text,
  ADD COLUMN ach_routing_last4 text CHECK (ach_routing_last4 ~ '^[0-9]{4}$'),
  ADD COLUMN ach_account_last4 text CHECK (ach_account_last4 ~ '^[0-9]{4}$'),
  ADD COLUMN ach_account_holder_name text CHECK (length(ach_account_holder_name) BETWEEN 1 AND 200),
  ADD COLUMN stripe_connect_email text CHECK (length(stripe_connect_email) BETWEEN 3 AND 320);

-- A sealed number always has its last 4 digits beside it, and the reverse: no half-saved bank account.
ALTER TABLE users ADD CONSTRAINT users_ach_complete CHECK (
  (ach_routing_number_encrypted IS NULL) = (ach_routing_last4 IS NULL)
  AND (ach_account_number_encrypted IS NULL) = (ach_account_last4 IS NULL)
);

-- A refund after a payout takes back what was already paid: the pending figure may go below zero.
ALTER TABLE users DROP CONSTRAINT users_pending_payout_cents_check;

-- A checkout's idempotency key is bound to what it was first used with: the digest of the cart,
-- the address, the email, the SMS consent and the signed-in buyer (null for orders made before).
ALTER TABLE orders ADD COLUMN idempotency_fingerprint text;

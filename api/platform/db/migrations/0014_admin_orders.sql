-- The admin portal's orders (api/modules/orders, admin-service.ts).
--  - The list, newest first (created_at DESC, id DESC keyset), all or by status. The status index
--    replaces orders_status (status, created_at), whose queries it serves as well.
--  - The search: a whole order id, or the start of one, is a range of the primary key. Text
--    anywhere in the customer email (ILIKE '%text%', any case) can use no B-tree: a trigram GIN
--    index answers it (the pg_trgm extension, as 0016_admin_indexes.sql uses for the other
--    lists; created here if it is not there yet).
--  - An order's fulfil job is found by its dedupe key (fulfil:<order id>), unique already.
--  - refund_requested_at: when an admin sent a refund the payment provider has not confirmed
--    yet. While it is recent, another request is refused rather than sent (and logged) again.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX orders_newest ON orders (created_at DESC, id DESC);
CREATE INDEX orders_status_newest ON orders (status, created_at DESC, id DESC);
DROP INDEX IF EXISTS orders_status;
CREATE INDEX orders_customer_email_trgm ON orders USING gin (customer_email gin_trgm_ops);

ALTER TABLE orders ADD COLUMN refund_requested_at timestamptz;

-- Each run of the payment reconciliation: the provider's succeeded payments of the last days
-- held against the orders, what was repaired (an order paid that had missed its payment) and
-- what was refunded (a payment no order can take). Admins read the latest runs.
CREATE TABLE payment_reconciliations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ran_at timestamptz NOT NULL DEFAULT now(),
  since timestamptz NOT NULL,
  provider text NOT NULL,
  checked integer NOT NULL CHECK (checked >= 0),
  in_order integer NOT NULL CHECK (in_order >= 0),
  repaired jsonb NOT NULL DEFAULT '[]'::jsonb,
  refunded jsonb NOT NULL DEFAULT '[]'::jsonb
);
CREATE INDEX payment_reconciliations_ran_at ON payment_reconciliations (ran_at DESC);

-- Leases shared by every API process: a named key held by one process (its server_instances id)
-- until it lets go or until expires_at passes without a renewal, after which anyone may take it.
-- Each taking gets its own token, so a holder that lost its lease cannot renew or release the
-- next holder's. Expiry is by the database's clock.
CREATE TABLE leases (
  key text PRIMARY KEY,
  holder text NOT NULL,
  token uuid NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE INDEX leases_expiry ON leases (expires_at);

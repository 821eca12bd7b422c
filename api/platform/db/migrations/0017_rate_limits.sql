-- Rate limits shared by every API process: one row per counted request or failure, per limiter
-- (bucket) and key (an address, an email, a user). A limiter counts the rows of its key still
-- inside its window; rows past their window are removed as the key is next used and by a sweep.
CREATE TABLE rate_limit_hits (
  id bigserial PRIMARY KEY,
  bucket text NOT NULL,
  key text NOT NULL,
  at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE INDEX rate_limit_hits_key ON rate_limit_hits (bucket, key, at);
CREATE INDEX rate_limit_hits_expiry ON rate_limit_hits (expires_at);

-- The admin portal at scale (100,000 users, 1,000,000 videos).
--
-- Lists: every filter of the user and video lists pages by keyset on (created_at DESC, id DESC)
-- over an index already made: users_newest and users_status_newest (0012), videos_newest,
-- videos_status_newest (pending, rejected) and videos_listed (approved: the listed condition)
-- (0013). What was missing is the searches: a text anywhere in a name (ILIKE '%text%') can use
-- no B-tree. Trigram GIN indexes answer it for the user list's display name, username and email
-- and for the moderation list's video titles (a video's creator is found through the users'
-- indexes). A search that matches many rows is still read in created_at order from the B-tree,
-- the planner choosing; one that matches few no longer reads the whole table.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX users_display_name_trgm ON users USING gin (display_name gin_trgm_ops);
CREATE INDEX users_username_trgm ON users USING gin (username gin_trgm_ops);
CREATE INDEX users_email_trgm ON users USING gin (email gin_trgm_ops);
CREATE INDEX videos_title_trgm ON videos USING gin (title gin_trgm_ops);

-- The dashboard's counts of users by status and of videos by verification status, kept exact by
-- triggers in the same transaction as each insert, delete and change of status, so counting a
-- million videos is reading a few rows. A statement's rows are counted once per statement (from
-- its transition table), so a bulk insert or a cascaded delete updates each count once. Each
-- count is split over 16 slots, a session writing the slot of its backend, so sessions adding
-- videos at the same time do not queue on one row; a figure is the sum of its slots (which alone
-- may go below zero).
CREATE TABLE row_counts (
  table_name text NOT NULL CHECK (table_name IN ('users', 'videos')),
  status text NOT NULL,
  slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 15),
  n bigint NOT NULL,
  PRIMARY KEY (table_name, status, slot)
);

-- Statement-level, after INSERT (transition table `added`) or DELETE (`removed`); TG_ARGV[0] is
-- the status column.
CREATE FUNCTION row_counts_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format(
      'INSERT INTO row_counts (table_name, status, slot, n)
       SELECT %L, %I, pg_backend_pid() %% 16, count(*) FROM added GROUP BY %I
       ON CONFLICT (table_name, status, slot) DO UPDATE SET n = row_counts.n + excluded.n',
      TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format(
      'INSERT INTO row_counts (table_name, status, slot, n)
       SELECT %L, %I, pg_backend_pid() %% 16, -count(*) FROM removed GROUP BY %I
       ON CONFLICT (table_name, status, slot) DO UPDATE SET n = row_counts.n + excluded.n',
      TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[0]);
  ELSIF TG_OP = 'TRUNCATE' THEN
    DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END
$$;

-- Row-level, after an UPDATE that changed the status column (TG_ARGV[0]): only status changes
-- fire it (suspending a user, moderating a video), never the frequent other updates (view counts).
CREATE FUNCTION row_counts_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO row_counts (table_name, status, slot, n)
  VALUES (TG_TABLE_NAME, to_jsonb(OLD) ->> TG_ARGV[0], pg_backend_pid() % 16, -1),
         (TG_TABLE_NAME, to_jsonb(NEW) ->> TG_ARGV[0], pg_backend_pid() % 16, 1)
  ON CONFLICT (table_name, status, slot) DO UPDATE SET n = row_counts.n + excluded.n;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_statement('status');
CREATE TRIGGER users_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_statement('status');
CREATE TRIGGER users_count_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_statement('status');
CREATE TRIGGER users_count_status AFTER UPDATE OF status ON users
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION row_counts_status_change('status');

CREATE TRIGGER videos_count_insert AFTER INSERT ON videos REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_statement('verification_status');
CREATE TRIGGER videos_count_delete AFTER DELETE ON videos REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_statement('verification_status');
CREATE TRIGGER videos_count_truncate AFTER TRUNCATE ON videos
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_statement('verification_status');
CREATE TRIGGER videos_count_status AFTER UPDATE OF verification_status ON videos
  FOR EACH ROW WHEN (OLD.verification_status IS DISTINCT FROM NEW.verification_status)
  EXECUTE FUNCTION row_counts_status_change('verification_status');

-- The rows already there. The triggers above hold locks on both tables until this migration
-- commits, so no write slips between these counts and the triggers.
INSERT INTO row_counts (table_name, status, slot, n)
  SELECT 'users', status, 0, count(*) FROM users GROUP BY status;
INSERT INTO row_counts (table_name, status, slot, n)
  SELECT 'videos', verification_status, 0, count(*) FROM videos GROUP BY verification_status;

-- The admin portal's lists and figures (api/modules/admin).
--  - Users, newest first (created_at DESC, id DESC keyset), all or by status; the status index
--    also counts active and suspended users for the dashboard.
--  - The admin log, newest first, by each of its filters (admin_logs_newest in 0001 serves the
--    unfiltered list and the dashboard's recent activity).
--  - The dashboard's count of failed jobs. (Its counts of videos by verification status use
--    0013_moderation.sql's videos_status_newest.)
CREATE INDEX users_newest ON users (created_at DESC, id DESC);
CREATE INDEX users_status_newest ON users (status, created_at DESC, id DESC);
CREATE INDEX admin_logs_action_newest ON admin_logs (action_type, created_at DESC, id DESC);
CREATE INDEX admin_logs_target_newest ON admin_logs (target_type, created_at DESC, id DESC);
CREATE INDEX admin_logs_admin_newest ON admin_logs (admin_user_id, created_at DESC, id DESC);
CREATE INDEX jobs_failed ON jobs (updated_at) WHERE status = 'failed';

-- Content moderation (spec section 4): a video is listed (feed, channels, search) when it was
-- verified at sign-in or approved by an admin; pending and rejected ones are not. The public
-- queries test exactly this predicate, written as literals (api/modules/videos/repository.ts
-- LISTED), so these partial indexes replace the ones that only left out rejected videos.
DROP INDEX IF EXISTS videos_feed;
DROP INDEX IF EXISTS videos_feed_category;
CREATE INDEX videos_listed ON videos (created_at DESC, id DESC)
  WHERE verification_status IN ('verified_via_supabase_auth', 'approved');
CREATE INDEX videos_listed_category ON videos (category, created_at DESC, id DESC)
  WHERE verification_status IN ('verified_via_supabase_auth', 'approved');
-- A channel's listed videos, newest first.
CREATE INDEX videos_listed_user ON videos (user_id, created_at DESC, id DESC)
  WHERE verification_status IN ('verified_via_supabase_auth', 'approved');

-- The admin's moderation list: every video newest first, or one status's (pending, rejected).
CREATE INDEX videos_newest ON videos (created_at DESC, id DESC);
CREATE INDEX videos_status_newest ON videos (verification_status, created_at DESC, id DESC);

/** Channels: a creator's public page with their videos, the channel search and the newest creators. */
import type { Kysely } from 'kysely';
import { SIDEBAR_CREATOR_COUNT } from '../../../shared/constants.ts';
import type { DB } from '../../platform/db/schema.ts';
import { listChannelVideos, toCard } from '../videos/index.ts';
import * as repo from './repository.ts';

export interface PublicProfile {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  cover_image_url: string | null;
  bio: string;
  created_at: string;
}

/** An active creator's public profile and visible videos, by slug (any case), or undefined. */
export async function channelPage(db: Kysely<DB>, slug: string) {
  const u = await repo.findActiveUserBySlug(db, slug);
  if (!u) return undefined;
  const profile: PublicProfile = {
    id: u.id,
    display_name: u.display_name,
    profile_image_url: u.profile_image_url,
    cover_image_url: u.cover_image_url,
    bio: u.bio,
    created_at: u.created_at.toISOString(),
  };
  const videos = await listChannelVideos(db, u.id);
  return { profile, username: u.username, videos: videos.map(toCard) };
}

export function searchChannels(db: Kysely<DB>, text: string) {
  return repo.searchChannels(db, text);
}

export function newestCreators(db: Kysely<DB>) {
  return repo.listNewestCreators(db, SIDEBAR_CREATOR_COUNT);
}

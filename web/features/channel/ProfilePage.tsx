import { Navigate, useParams } from 'react-router';
import { profileRoute } from '../../../shared/schemas/channels.ts';
import { userSubscriptionRoute } from '../../../shared/schemas/subscriptions.ts';
import type { SubscriptionTier } from '../../../shared/subscriptions.ts';
import { request } from '../../lib/api.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import { isCreator } from '../../stores/roles.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { profileFailure } from './creatorFailure.ts';
import { CreatorPage } from './CreatorPage.tsx';

/** The profile's tier, for its Pro badge; a tier that cannot be read shows no badge (the profile still shows). */
async function loadTier(username: string, signal: AbortSignal): Promise<SubscriptionTier | undefined> {
  try {
    return (await request(userSubscriptionRoute, { params: { username }, signal })).tier;
  } catch (error) {
    if (isAbortError(error)) throw error;
    return undefined;
  }
}

async function loadProfile(slug: string, signal: AbortSignal) {
  const [{ profile, videos }, tier] = await Promise.all([request(profileRoute, { params: { slug }, signal }), loadTier(slug, signal)]);
  return { creator: { ...profile, ...(tier ? { tier } : {}) }, videos };
}

/**
 * /profile/:username: a creator's public profile (only its public fields), a Pro badge when
 * their tier is Pro (GET /api/users/:username/subscription), and their videos.
 * Spec: a signed-in viewer who is not a creator (a customer; admins may look) goes home.
 */
export function ProfilePage() {
  const user = useAuth((s) => s.user);
  const slug = useParams().username ?? '';
  if (user && !isCreator(user)) return <Navigate to="/" replace />;
  return <CreatorPage slug={slug} loadingTitle="Loading profile..." load={loadProfile} failure={profileFailure} />;
}

import { useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { profileRoute } from '../../../shared/schemas/channels.ts';
import { userSubscriptionRoute } from '../../../shared/schemas/subscriptions.ts';
import type { SubscriptionTier } from '../../../shared/subscriptions.ts';
import { request } from '../../lib/api.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import { isCreator } from '../../stores/roles.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { useLayout } from '../../stores/useLayout.ts';
import { profileFailure } from './creatorFailure.ts';
import { CreatorPage } from './CreatorPage.tsx';

interface ProfileTier {
  tier: SubscriptionTier;
  isThirdTier: boolean;
}

/** The profile's tier, for its Pro badge; a tier that cannot be read shows no badge (the profile still shows). */
async function loadTier(username: string, signal: AbortSignal): Promise<ProfileTier | undefined> {
  try {
    const { tier, isThirdTier } = await request(userSubscriptionRoute, { params: { username }, signal });
    return { tier, isThirdTier };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return undefined;
  }
}

/** The profile with its videos and tier; tells `onThirdTier` whether the owner is on the third tier (no sidebar then). */
export async function loadProfile(slug: string, signal: AbortSignal, onThirdTier: (thirdTier: boolean) => void = () => undefined) {
  const [{ profile, videos }, tier] = await Promise.all([request(profileRoute, { params: { slug }, signal }), loadTier(slug, signal)]);
  onThirdTier(tier?.isThirdTier === true);
  return { creator: { ...profile, ...(tier ? { tier: tier.tier } : {}) }, videos };
}

/**
 * /profile/:username: a creator's public profile (only its public fields), a Pro badge when
 * their tier is Pro (GET /api/users/:username/subscription), and their videos; no sidebar when
 * the owner is on the third tier (spec section 2).
 * Spec: a signed-in viewer who is not a creator (a customer; admins may look) goes home.
 */
export function ProfilePage() {
  const user = useAuth((s) => s.user);
  const slug = useParams().username ?? '';
  const suppressSidebar = useLayout((s) => s.suppressSidebar);
  // Another profile, or another page, brings the sidebar back until its own tier is known.
  useEffect(() => () => suppressSidebar(false), [slug, suppressSidebar]);
  if (user && !isCreator(user)) return <Navigate to="/" replace />;
  return (
    <CreatorPage
      slug={slug}
      loadingTitle="Loading profile..."
      load={(s, signal) =>
        loadProfile(s, signal, (thirdTier) => {
          if (!signal.aborted) suppressSidebar(thirdTier);
        })
      }
      failure={profileFailure}
    />
  );
}

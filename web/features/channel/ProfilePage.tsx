import { Navigate, useParams } from 'react-router';
import { profileRoute } from '../../../shared/schemas/channels.ts';
import { request } from '../../lib/api.ts';
import { isCreator } from '../../stores/roles.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { profileFailure } from './creatorFailure.ts';
import { CreatorPage } from './CreatorPage.tsx';

async function loadProfile(slug: string, signal: AbortSignal) {
  const { profile, videos } = await request(profileRoute, { params: { slug }, signal });
  return { creator: profile, videos };
}

/**
 * /profile/:username: a creator's public profile (only its public fields) and videos.
 * Spec: a signed-in viewer who is not a creator (a customer; admins may look) goes home.
 */
export function ProfilePage() {
  const user = useAuth((s) => s.user);
  const slug = useParams().username ?? '';
  if (user && !isCreator(user)) return <Navigate to="/" replace />;
  return <CreatorPage slug={slug} loadingTitle="Loading profile..." load={loadProfile} failure={profileFailure} />;
}

import { useId, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { profileRoute } from '../../../shared/schemas/channels.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isCreator } from '../../lib/roles.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useAuth } from '../../lib/useAuth.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { profileFailure } from './creatorFailure.ts';
import { CreatorHeader } from './CreatorHeader.tsx';
import { CreatorVideos } from './CreatorVideos.tsx';

/**
 * /profile/:username: a creator's public profile (only its public fields) and videos.
 * Spec: a signed-in viewer who is not a creator (a customer; admins may look) goes home.
 */
export function ProfilePage() {
  const user = useAuth((s) => s.user);
  if (user && !isCreator(user)) return <Navigate to="/" replace />;
  return <Profile />;
}

function Profile() {
  const slug = useParams().username ?? '';
  const [attempt, setAttempt] = useState(0);
  const headingId = useId();
  const state = useApiRead(`${slug}#${attempt}`, (signal) => request(profileRoute, { params: { slug }, signal }));
  useDocumentTitle(state.status === 'ready' ? state.data.profile.display_name : null);

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading profile..." />;
  if (state.status === 'error') {
    const failure = profileFailure(state.error);
    return (
      <StatusMessage kind="error" title={failure.message}>
        {failure.retry ? (
          <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        ) : (
          <Link to="/">Browse videos</Link>
        )}
      </StatusMessage>
    );
  }

  const { profile, videos } = state.data;
  return (
    <section className="creator-page" aria-labelledby={headingId}>
      <CreatorHeader
        headingId={headingId}
        name={profile.display_name}
        bio={profile.bio}
        profileImageUrl={profile.profile_image_url}
        coverImageUrl={profile.cover_image_url}
      />
      <CreatorVideos videos={videos} label={`Videos by ${profile.display_name}`} />
    </section>
  );
}

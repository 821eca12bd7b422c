import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import type { CreatorFailure } from './creatorFailure.ts';
import { CreatorHeader } from './CreatorHeader.tsx';
import { CreatorVideos } from './CreatorVideos.tsx';

export interface CreatorData {
  creator: {
    display_name: string;
    bio: string;
    profile_image_url: string | null;
    cover_image_url: string | null;
    /** Shown as @handle when given (the channel page). */
    username?: string;
    /** The creator's tier when known (the profile page): Pro shows a badge. */
    tier?: 'free' | 'pro';
  };
  videos: VideoCard[];
}

/** What the channel and profile pages share: loading, failure with retry, header and video grid. */
export function CreatorPage(props: {
  slug: string;
  loadingTitle: string;
  load: (slug: string, signal: AbortSignal) => Promise<CreatorData>;
  failure: (error: unknown) => CreatorFailure;
}) {
  const { slug, loadingTitle, load, failure } = props;
  const [attempt, setAttempt] = useState(0);
  const headingId = useId();
  const state = useApiRead(`${slug}#${attempt}`, (signal) => load(slug, signal));
  useDocumentTitle(state.status === 'ready' ? state.data.creator.display_name : null);

  if (state.status === 'loading') return <StatusMessage kind="loading" title={loadingTitle} />;
  if (state.status === 'error') {
    const f = failure(state.error);
    return (
      <StatusMessage kind="error" title={f.message}>
        {f.retry ? (
          <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        ) : (
          <Link to="/">Browse videos</Link>
        )}
      </StatusMessage>
    );
  }

  const { creator, videos } = state.data;
  return (
    <section className="creator-page" aria-labelledby={headingId}>
      <CreatorHeader
        headingId={headingId}
        name={creator.display_name}
        {...(creator.username ? { handle: `@${creator.username}` } : {})}
        bio={creator.bio}
        profileImageUrl={creator.profile_image_url}
        coverImageUrl={creator.cover_image_url}
        pro={creator.tier === 'pro'}
      />
      <CreatorVideos videos={videos} label={`Videos by ${creator.display_name}`} />
    </section>
  );
}

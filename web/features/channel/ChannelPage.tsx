import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { channelRoute } from '../../../shared/schemas/channels.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { channelFailure } from './creatorFailure.ts';
import { CreatorHeader } from './CreatorHeader.tsx';
import { CreatorVideos } from './CreatorVideos.tsx';

/** /channel/:channelName: a creator's channel with its videos, newest first. */
export function ChannelPage() {
  const slug = useParams().channelName ?? '';
  const [attempt, setAttempt] = useState(0);
  const headingId = useId();
  const state = useApiRead(`${slug}#${attempt}`, (signal) => request(channelRoute, { params: { slug }, signal }));
  useDocumentTitle(state.status === 'ready' ? state.data.channel.display_name : null);

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading channel..." />;
  if (state.status === 'error') {
    const failure = channelFailure(state.error);
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

  const { channel, videos } = state.data;
  return (
    <section className="creator-page" aria-labelledby={headingId}>
      <CreatorHeader
        headingId={headingId}
        name={channel.display_name}
        handle={`@${channel.username}`}
        bio={channel.bio}
        profileImageUrl={channel.profile_image_url}
        coverImageUrl={channel.cover_image_url}
      />
      <CreatorVideos videos={videos} label={`Videos by ${channel.display_name}`} />
    </section>
  );
}

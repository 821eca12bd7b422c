import { useParams } from 'react-router';
import { channelRoute } from '../../../shared/schemas/channels.ts';
import { request } from '../../lib/api.ts';
import { channelFailure } from './creatorFailure.ts';
import { CreatorPage } from './CreatorPage.tsx';

async function loadChannel(slug: string, signal: AbortSignal) {
  const { channel, videos } = await request(channelRoute, { params: { slug }, signal });
  return { creator: channel, videos };
}

/** /channel/:channelName: a creator's channel with its videos, newest first. */
export function ChannelPage() {
  const slug = useParams().channelName ?? '';
  return <CreatorPage slug={slug} loadingTitle="Loading channel..." load={loadChannel} failure={channelFailure} />;
}

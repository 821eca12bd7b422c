import { CHANNEL_MESSAGES } from '../../../shared/schemas/channels.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { VideoCardList } from '../../components/VideoCardList.tsx';

/** A creator's video grid, or the spec's message when there is none. */
export function CreatorVideos({ videos, label }: { videos: readonly VideoCard[]; label: string }) {
  if (videos.length === 0) return <StatusMessage kind="info" title={CHANNEL_MESSAGES.noVideos} />;
  return <VideoCardList videos={videos} label={label} />;
}

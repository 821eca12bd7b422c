import { VideoPage } from '../../features/player/VideoPage.tsx';
import { CaptureWorkspace } from './CaptureWorkspace.tsx';

/** /video/…: the player's page with the capture workspace around the loaded video. */
export function VideoRoute() {
  return <VideoPage workspace={(video, viewCount) => <CaptureWorkspace video={video} viewCount={viewCount} />} />;
}

import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { keepForOffline } from './keepForOffline.ts';
import { useRecordView } from './useRecordView.ts';
import { useVideo, type VideoDetail } from './useVideo.ts';
import './VideoPage.css';

/** What the page shows around a loaded video (the app layer's capture workspace), given its counted views. */
type Workspace = (video: VideoDetail, viewCount: number | null) => ReactNode;

/** /video/:categoryId/:videoId. The category in the path is only for the address; the id decides. */
export function VideoPage({ workspace }: { workspace: Workspace }) {
  const videoId = useParams().videoId?.trim() ?? '';
  if (videoId === '') return <StatusMessage kind="info" title="No video selected." />;
  return <VideoView videoId={videoId} workspace={workspace} />;
}

function VideoView({ videoId, workspace }: { videoId: string; workspace: Workspace }) {
  const [attempt, setAttempt] = useState(0);
  const state = useVideo(videoId, attempt);
  useDocumentTitle(state.status === 'ready' ? state.video.title : null);

  switch (state.status) {
    case 'loading':
      return <StatusMessage kind="loading" title="Loading video..." />;
    case 'not-found':
      return (
        <StatusMessage kind="error" title="Video not found.">
          <Link to="/">Browse videos</Link>
        </StatusMessage>
      );
    case 'error':
      return (
        <StatusMessage kind="error" title={state.message}>
          <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </StatusMessage>
      );
  }

  return <VideoReady key={state.video.id} video={state.video} workspace={workspace} />;
}

/** A loaded video; mounted once per video, so its view is counted once. */
function VideoReady({ video, workspace }: { video: VideoDetail; workspace: Workspace }) {
  const views = useRecordView(video.id);
  // A page visited once reopens offline with its video.
  useEffect(() => keepForOffline(video), [video]);
  return workspace(video, views);
}

import { useState, type ReactNode, type Ref } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { describeMediaError } from './describeMediaError.ts';
import './VideoPlayer.css';

interface VideoPlayerProps {
  src: string;
  poster: string | null;
  title: string;
  /** The <video> element, for capturing its frames. */
  videoRef?: Ref<HTMLVideoElement>;
  /** The video's own pixel size once known; null again if the video fails. */
  onVideoSize?: (size: { width: number; height: number } | null) => void;
  /** Drawn over the picture (the crop box). */
  children?: ReactNode;
}

/** The <video> in a 16:9 frame; if the browser cannot play it, a Video Error panel takes its place. */
export function VideoPlayer({ src, poster, title, videoRef, onVideoSize, children }: VideoPlayerProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  return (
    <div className="player">
      {failure === null ? (
        <video
          key={attempt}
          ref={videoRef}
          className="player__video"
          controls
          playsInline
          preload="metadata"
          // CORS mode (set before the addresses): frames are captured by drawing the video on a
          // canvas, which a video from the object store's origin (where /media/ may redirect)
          // would otherwise taint.
          crossOrigin="anonymous"
          poster={poster ?? undefined}
          src={src}
          aria-label={title}
          onLoadedMetadata={(event) => onVideoSize?.({ width: event.currentTarget.videoWidth, height: event.currentTarget.videoHeight })}
          onError={(event) => {
            onVideoSize?.(null);
            setFailure(describeMediaError(event.currentTarget.error?.code));
          }}
        />
      ) : (
        <div className="player__error" role="alert">
          <Icon name="alert" size={36} />
          <h2 className="player__error-title">Video Error</h2>
          <p className="player__error-text">{failure}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              setFailure(null);
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </button>
        </div>
      )}
      {failure === null && children}
    </div>
  );
}

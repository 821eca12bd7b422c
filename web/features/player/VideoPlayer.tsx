import { useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { describeMediaError } from './describeMediaError.ts';
import './VideoPlayer.css';

interface VideoPlayerProps {
  src: string;
  poster: string | null;
  title: string;
}

/** The <video> in a 16:9 frame; if the browser cannot play it, a Video Error panel takes its place. */
export function VideoPlayer({ src, poster, title }: VideoPlayerProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  return (
    <div className="player">
      {failure === null ? (
        <video
          key={attempt}
          className="player__video"
          controls
          playsInline
          preload="metadata"
          poster={poster ?? undefined}
          src={src}
          aria-label={title}
          onError={(event) => setFailure(describeMediaError(event.currentTarget.error?.code))}
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
    </div>
  );
}

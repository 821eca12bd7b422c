/**
 * Which frame is on screen, and its pixels. A paused player's currentTime is only some time inside
 * the frame it shows (after a seek, the time asked for); requestVideoFrameCallback reports the
 * presented frame's own media time, but only when a frame is presented. So every <video> on the
 * page is watched from its first load, seek or play (media events reach a capturing listener on
 * the document), and the last presented frame is remembered. A playing video is captured inside
 * the callback of the next frame, so the pixels drawn and the time reported are the same frame.
 */

export interface PresentedFrame {
  /** Media time in seconds: the frame's own presentation time when `exact`, else the player's time. */
  time: number;
  exact: boolean;
  /**
   * The frame itself, held by reference (no pixels copied), when asked for and the browser has
   * WebCodecs: drawn later (the preview at once, the full resolution off the main thread) and
   * always the same frame, whatever the player does meanwhile. Whoever takes it closes it.
   */
  videoFrame: VideoFrame | null;
  /** The frame drawn at the video's own resolution, where `videoFrame` could not be had. */
  canvas: HTMLCanvasElement | null;
  /** Why the frame could not be drawn. */
  drawError: unknown;
}

interface Watch {
  /** Counts seeks, so a remembered frame from before the latest seek is known to be stale. */
  seeks: number;
  last: { mediaTime: number; seeks: number } | null;
  waiters: Set<() => void>;
}

const watches = new WeakMap<HTMLVideoElement, Watch>();
/** How long a paused player may take to present the frame a seek asked for. */
const PRESENT_WAIT_MS = 150;
/** How long a playing video may take to present its next frame. */
const NEXT_FRAME_WAIT_MS = 250;
const SEEK_WAIT_MS = 5_000;

const hasFrameCallbacks = () => typeof HTMLVideoElement !== 'undefined' && 'requestVideoFrameCallback' in HTMLVideoElement.prototype;

function watch(video: HTMLVideoElement): Watch {
  const existing = watches.get(video);
  if (existing) return existing;
  const state: Watch = { seeks: 0, last: null, waiters: new Set() };
  watches.set(video, state);
  video.addEventListener('seeking', () => state.seeks++);
  const onFrame: VideoFrameRequestCallback = (_now, metadata) => {
    state.last = { mediaTime: metadata.mediaTime, seeks: state.seeks };
    for (const wake of state.waiters) wake();
    state.waiters.clear();
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
  return state;
}

if (typeof document !== 'undefined' && hasFrameCallbacks()) {
  for (const type of ['loadstart', 'loadeddata', 'seeking', 'play']) {
    document.addEventListener(type, (e) => e.target instanceof HTMLVideoElement && watch(e.target), { capture: true });
  }
}

/** Whether the element has a decoded frame to draw. */
export function hasFrame(video: HTMLVideoElement): boolean {
  return !video.error && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0 && video.videoHeight > 0;
}

/**
 * The frame on screen as a VideoFrame, when it is upright as shown: a frame with rotation or
 * flip metadata (a phone clip) is drawn through the <video>, which applies them.
 */
function grabVideoFrame(video: HTMLVideoElement): VideoFrame | null {
  if (typeof VideoFrame === 'undefined') return null;
  let frame: VideoFrame;
  try {
    frame = new VideoFrame(video);
  } catch {
    // A video from another origin without CORS, or no frame: the canvas draw says why.
    return null;
  }
  const { rotation, flip } = frame as VideoFrame & { rotation?: number; flip?: boolean };
  if (!rotation && !flip && frame.displayWidth === video.videoWidth && frame.displayHeight === video.videoHeight) return frame;
  frame.close();
  return null;
}

function draw(video: HTMLVideoElement): Pick<PresentedFrame, 'videoFrame' | 'canvas' | 'drawError'> {
  try {
    if (!hasFrame(video)) throw new Error(video.error ? `The video cannot be decoded (${video.error.code})` : 'The video has no frame to capture yet');
    const videoFrame = grabVideoFrame(video);
    if (videoFrame) return { videoFrame, canvas: null, drawError: null };
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('No 2D canvas');
    ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
    return { videoFrame: null, canvas, drawError: null };
  } catch (error) {
    return { videoFrame: null, canvas: null, drawError: error };
  }
}

function waitFor(video: HTMLVideoElement, event: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      video.removeEventListener(event, done);
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(done, ms);
    video.addEventListener(event, done, { once: true });
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

function nextPresented(w: Watch, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      w.waiters.delete(wake);
      resolve();
    }, ms);
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    w.waiters.add(wake);
  });
}

/**
 * The frame on screen now: its media time, and its pixels when `withPixels`. Resolves with a
 * `drawError` rather than rejecting, so the later steps of the chain still know the time.
 */
export async function presentedFrame(video: HTMLVideoElement, withPixels: boolean, signal?: AbortSignal): Promise<PresentedFrame> {
  signal?.throwIfAborted();
  const capture = (time: number, exact: boolean): PresentedFrame => ({
    time,
    exact,
    ...(withPixels ? draw(video) : { videoFrame: null, canvas: null, drawError: null }),
  });
  if (!hasFrameCallbacks() || !hasFrame(video)) return capture(video.currentTime, false);

  if (!video.paused && !video.ended) {
    const playing = await new Promise<PresentedFrame | null>((resolve) => {
      const id = video.requestVideoFrameCallback((_now, metadata) => {
        clearTimeout(timer);
        resolve(capture(metadata.mediaTime, true));
      });
      const timer = setTimeout(() => {
        video.cancelVideoFrameCallback(id);
        resolve(null);
      }, NEXT_FRAME_WAIT_MS);
    });
    if (playing) return playing;
  }

  if (video.seeking) await waitFor(video, 'seeked', SEEK_WAIT_MS, signal);
  const known = watches.get(video);
  const w = watch(video);
  // Just after a seek the new frame may not have been presented yet: give it a moment.
  if (known && (!w.last || w.last.seeks !== w.seeks)) await nextPresented(w, PRESENT_WAIT_MS);
  signal?.throwIfAborted();
  const fresh = w.last && w.last.seeks === w.seeks && !video.seeking ? w.last : null;
  return fresh ? capture(fresh.mediaTime, true) : capture(video.currentTime, false);
}

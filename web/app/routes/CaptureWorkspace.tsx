import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { CropRect, Size } from '../../../shared/print.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { Toast } from '../../components/Toast.tsx';
import { usePendingMerch } from '../../stores/pendingMerch.ts';
import { isComplete, type CompleteScreenshot, type PendingScreenshot } from '../../stores/pendingMerchRecord.ts';
import type { CropToolResult } from '../../features/print-crop/CropToolModal.tsx';
import { formatPixelSize } from '../../components/crop-box/cropBox.ts';
import { cropToPng, type ImageResult } from '../../features/print-crop/printProcessing.ts';
import { CROP_FAILED_MESSAGE, PRINT_DOWNLOAD_NAME } from '../../features/print-crop/printToolMessages.ts';
import { renderUpscaleAction } from '../../features/print-crop/upscale/renderUpscaleAction.tsx';
import { DpiBadge } from '../../components/DpiBadge.tsx';
import { CropOverlay } from '../../features/crop/CropOverlay.tsx';
import { loadThumbnail } from '../../features/capture/loadThumbnail.ts';
import { MerchSteps } from '../../features/shop/MerchSteps.tsx';
import { ScreenshotGrid } from '../../features/capture/ScreenshotGrid.tsx';
import { useCaptureActions } from '../../features/capture/useCaptureActions.ts';
import { useMakeMerch } from '../../features/shop/useMakeMerch.ts';
import { useObjectUrl } from '../../lib/useObjectUrl.ts';
import type { VideoDetail } from '../../features/player/useVideo.ts';
import { VideoInfo } from '../../features/player/VideoInfo.tsx';
import { VideoPlayer } from '../../features/player/VideoPlayer.tsx';
import { cropForFrame, defaultVideoCrop, pictureRect } from '../../features/crop/videoCrop.ts';
import { useSavedCrop } from '../../features/crop/useSavedCrop.ts';
import { AuthModal } from '../lazyModals.ts';
import './CaptureWorkspace.css';

const NO_SCREENSHOTS: readonly PendingScreenshot[] = [];

const CropToolModal = lazy(async () => ({ default: (await import('../../features/print-crop/CropToolModal.tsx')).CropToolModal }));

/**
 * The video page's working area: the step bar, the player with its crop mode, the capture
 * controls, the title, the six screenshot slots and the print crop tool on any of them.
 * Mounted once per video; opening it shows that video's pending merch screenshots.
 */
export function CaptureWorkspace({ video, viewCount }: { video: VideoDetail; viewCount: number | null }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const slotsRef = useRef<HTMLUListElement>(null);
  const [videoSize, setVideoSize] = useState<Size | null>(null);
  const [cropRect, setCropRect] = useState<CropRect | null>(null);
  const [cropTargetId, setCropTargetId] = useState<string | null>(null);
  const [print, setPrint] = useState<Extract<CropToolResult, { kind: 'print' }> | null>(null);
  const screenshotsTitleId = useId();

  const status = usePendingMerch((s) => s.status);
  const record = usePendingMerch((s) => s.record);
  const remove = usePendingMerch((s) => s.remove);
  const ready = status === 'ready' && record?.videoId === video.id;
  const screenshots = ready ? record.screenshots : NO_SCREENSHOTS;
  // The print crop tool works on the full-resolution image: it opens once that exists, and
  // closes if the screenshot is deleted.
  const cropTarget = screenshots.find((s): s is CompleteScreenshot => s.id === cropTargetId && isComplete(s)) ?? null;
  const openCropTool = useCallback((shot: PendingScreenshot) => setCropTargetId(shot.id), []);
  const closeCropTool = useCallback(() => setCropTargetId(null), []);

  const { busy, capture, run, add, toast, showError, dismissToast } = useCaptureActions({
    videoRef,
    videoUrl: video.video_url,
    thumbnailUrl: video.thumbnail_url,
    slotsRef,
  });

  /** Captures the frame on screen and keeps the part under `rect` (video pixels), pixel for pixel. */
  const applyCrop = useCallback(
    (rect: CropRect) =>
      run(
        'crop',
        async (frame, signal) => {
          const element = videoRef.current;
          const size = element && element.videoWidth > 0 ? { width: element.videoWidth, height: element.videoHeight } : frame;
          // Cut from the full-resolution frame, never the preview.
          const cropped = await cropToPng(await frame.blob, cropForFrame(rect, size, frame), signal);
          return { blob: cropped.blob, width: cropped.width, height: cropped.height, source: 'crop', timestamp: frame.timestamp };
        },
        CROP_FAILED_MESSAGE,
      ),
    [run],
  );
  const makeMerch = useMakeMerch(showError);
  const canMakeMerch = ready && !!video.video_url && screenshots.length > 0 && busy === null && makeMerch.state === 'idle';
  const makingMerch = makeMerch.state === 'creating' || makeMerch.state === 'redirecting';

  useEffect(() => {
    void usePendingMerch.getState().open(
      {
        videoId: video.id,
        videoUrl: video.video_url,
        thumbnail: video.thumbnail_url,
        videoTitle: video.title,
        creatorName: video.channel_title ?? 'Creator',
      },
      () => loadThumbnail(video.thumbnail_url),
    );
  }, [video.id, video.video_url, video.thumbnail_url, video.title, video.channel_title]);

  // The crop box comes back on a reload of this video (from IndexedDB, offline too).
  useSavedCrop(video.id, videoSize, cropRect, setCropRect);

  const onVideoSize = useCallback((size: Size | null) => {
    setVideoSize(size);
    if (!size) setCropRect(null);
  }, []);

  const toggleCrop = () => {
    const element = videoRef.current;
    if (cropRect || !element || !videoSize) {
      setCropRect(null);
      return;
    }
    const shown = element.getBoundingClientRect();
    setCropRect(defaultVideoCrop(videoSize, pictureRect(videoSize, shown).width));
  };

  const onApplyCrop = async () => {
    if (cropRect && (await applyCrop(cropRect))) setCropRect(null);
  };

  const onCropToolDone = (result: CropToolResult) => {
    const source = cropTarget;
    setCropTargetId(null);
    if (result.kind === 'print') {
      setPrint(result);
      return;
    }
    add({ blob: result.image.blob, width: result.image.width, height: result.image.height, source: 'crop', timestamp: source?.timestamp ?? null });
  };

  const canCapture = ready && !!video.video_url && videoSize !== null && busy === null;

  return (
    <article className="video-page">
      <MerchSteps
        screenshotCount={screenshots.length}
        capturing={busy === 'capture'}
        canCapture={canCapture}
        onSelectScreenshot={() => void capture()}
        canMakeMerch={canMakeMerch}
        makingMerch={makingMerch}
        onMakeMerch={makeMerch.start}
      />

      {video.video_url ? (
        <VideoPlayer src={video.video_url} poster={video.poster_url ?? video.thumbnail_url} title={video.title} videoRef={videoRef} onVideoSize={onVideoSize}>
          {cropRect && videoSize && <CropOverlay video={videoSize} rect={cropRect} onChange={setCropRect} disabled={busy !== null} />}
        </VideoPlayer>
      ) : (
        <div className="video-page__missing">
          <StatusMessage kind="error" title="Video URL is missing." />
        </div>
      )}

      <div className="capture-bar" role="toolbar" aria-label="Screenshot tools">
        <button
          type="button"
          className="button button--ghost"
          aria-pressed={cropRect !== null}
          onClick={toggleCrop}
          disabled={!videoSize || busy !== null}
        >
          Crop Mode
        </button>
        {cropRect && (
          <>
            <output className="capture-bar__readout" aria-label="Crop size">
              {formatPixelSize(cropRect)}
            </output>
            <button type="button" className="button button--primary" onClick={() => void onApplyCrop()} disabled={busy !== null} aria-busy={busy === 'crop' || undefined}>
              {busy === 'crop' ? 'Cropping...' : 'Apply Crop'}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setCropRect(null)} disabled={busy === 'crop'}>
              Cancel
            </button>
          </>
        )}
        <span className="capture-bar__spacer" />
        <button type="button" className="button button--primary" onClick={() => void capture()} disabled={!canCapture} aria-busy={busy === 'capture' || undefined}>
          {busy === 'capture' ? 'Capturing...' : 'Select Screenshot'}
        </button>
        <output className="capture-bar__count" aria-label="Screenshot count">
          {screenshots.length}
        </output>
        <button type="button" className="button button--primary" onClick={makeMerch.start} disabled={!canMakeMerch} aria-busy={makingMerch || undefined}>
          {makingMerch ? 'Creating product...' : 'Make Merch'}
        </button>
      </div>

      <VideoInfo video={viewCount === null ? video : { ...video, view_count: viewCount }} />

      <section className="video-page__shots" aria-labelledby={screenshotsTitleId}>
        <h2 className="video-page__shots-title" id={screenshotsTitleId}>
          Screenshots
        </h2>
        <ScreenshotGrid screenshots={screenshots} loading={!ready} onDelete={remove} onCrop={openCropTool} listRef={slotsRef} />
      </section>

      {print && <PrintFile image={print.image} message={print.message} dpi={print.dpi} sizeLabel={print.sizeLabel} onClose={() => setPrint(null)} />}

      {toast && <Toast key={toast.id} message={toast.text} onDismiss={dismissToast} />}

      {makeMerch.state === 'signing-in' && (
        <Suspense fallback={null}>
          <AuthModal onClose={makeMerch.cancelSignIn} onSuccess={(signedIn) => makeMerch.signedIn(signedIn.email)} />
        </Suspense>
      )}

      {cropTarget && (
        <Suspense fallback={null}>
          <SlotCropTool shot={cropTarget} onCancel={closeCropTool} onDone={onCropToolDone} />
        </Suspense>
      )}
    </article>
  );
}

/** The Simple Print Crop Tool on one screenshot. */
function SlotCropTool({ shot, onCancel, onDone }: { shot: CompleteScreenshot; onCancel: () => void; onDone: (result: CropToolResult) => void }) {
  const url = useObjectUrl(shot.blob);
  return <CropToolModal image={{ blob: shot.blob, url, width: shot.width, height: shot.height }} onCancel={onCancel} onDone={onDone} renderUpscale={renderUpscaleAction} />;
}

/** The print file made from a screenshot: preview, pixel size and download. */
function PrintFile({ image, message, dpi, sizeLabel, onClose }: { image: ImageResult; message: string; dpi: number; sizeLabel: string; onClose: () => void }) {
  const url = useObjectUrl(image.blob);
  return (
    <figure className="print-file" aria-label="Print file">
      <img className="print-file__image" src={url} alt="Print quality image" />
      <figcaption className="print-file__caption">
        <p className="print-file__message" role="status">
          {message}
        </p>
        <p className="print-file__size">
          Print file <output aria-label="Print size">{formatPixelSize(image)}</output>
        </p>
        <DpiBadge dpi={dpi} label={`Print file at ${sizeLabel}`} />
        <div className="print-file__actions">
          <a className="button button--primary" href={url} download={PRINT_DOWNLOAD_NAME}>
            Download print PNG
          </a>
          <button type="button" className="button button--ghost" onClick={onClose}>
            Close
          </button>
        </div>
      </figcaption>
    </figure>
  );
}

/**
 * What the upload page shows for the states of an upload: the bar with the bytes, the notice
 * while the connection is lost, Cancel, and the tier refusals with the way to raise the limit.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { FileField, UploadStatus } from './UploadPage.tsx';
import type { UploadFlow } from './useUploadFlow.ts';

vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

const MB = 1024 * 1024;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const status = (flow: UploadFlow, tier: 'free' | 'pro' = 'pro') =>
  renderToStaticMarkup(
    <MemoryRouter>
      <UploadStatus flow={flow} tier={tier} onCancel={() => undefined} />
    </MemoryRouter>,
  );
const uploading = (notice: 'reconnecting' | 'resuming' | null): UploadFlow => ({
  status: 'uploading',
  step: { percent: 31, stage: 'video' },
  bytes: { sent: 45.3 * MB, total: 151 * MB },
  notice,
});

describe('UploadStatus', () => {
  it('shows the bar, the bytes sent of the total, and Cancel', () => {
    const html = status(uploading(null));
    expect(html).toContain('aria-valuenow="31"');
    expect(html).toContain('aria-valuetext="31% - Uploading video..."');
    expect(text(html)).toContain('Uploaded 45.3 MB of 151.0 MB');
    expect(html).toMatch(/<button type="button"[^>]*>Cancel upload<\/button>/);
    // The live region is there, empty, before it has anything to say.
    expect(html).toContain('<p class="upload__notice" role="status"></p>');
  });

  it('says the connection was lost while it resumes, and when an earlier upload is carried on', () => {
    expect(status(uploading('reconnecting'))).toContain('<p class="upload__notice" role="status">Connection lost. Resuming...</p>');
    expect(text(status(uploading('resuming')))).toContain('Resuming your earlier upload of this file...');
  });

  it('shows no byte count before sending begins', () => {
    expect(status({ status: 'uploading', step: { percent: 0, stage: 'ensureUser' }, bytes: null, notice: null })).not.toContain('Uploaded');
  });

  it("shows the server's limit message as it comes, with the upgrade link for a Free creator", () => {
    const reason = 'Video upload failed: Video file size must be less than 100MB. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.';
    const free = status({ status: 'failed', reason, httpStatus: 413 }, 'free');
    expect(text(free)).toContain(`❌ Upload failed ${reason}`);
    expect(free).toMatch(/<a class="upload__upgrade" href="\/subscription-tiers"[^>]*>Upgrade to Pro for videos up to 2GB and 60 minutes<\/a>/);
    expect(status({ status: 'failed', reason, httpStatus: 413 }, 'pro')).not.toContain('href="/subscription-tiers"');
    const tooLong = 'Video upload failed: Video must be shorter than 10 minutes.';
    const refused = status({ status: 'failed', reason: tooLong, httpStatus: 422 }, 'free');
    expect(text(refused)).toContain(tooLong);
    expect(refused).not.toContain('href="/subscription-tiers"');
  });

  it('confirms a cancelled upload and a finished one', () => {
    expect(text(status({ status: 'cancelled' }))).toBe('Upload cancelled.');
    const done = status({ status: 'done', video: { id: 'v' } as VideoCard });
    expect(done).toContain('aria-valuenow="100"');
    expect(done).not.toContain('Cancel upload');
  });
});

describe('FileField', () => {
  const field = (note: { kind: 'hint' | 'error'; text: string; upgrade?: boolean }) =>
    renderToStaticMarkup(
      <MemoryRouter>
        <FileField id="v" label="Video file" accept="video/*" note={note} inputRef={() => undefined} invalid={undefined} problemId={undefined} onChange={() => undefined} />
      </MemoryRouter>,
    );

  it('names the limit and links to the tiers page when a Free creator can upgrade', () => {
    const html = field({ kind: 'error', text: '❌ Video file size must be less than 100MB', upgrade: true });
    expect(html).toContain('role="alert"');
    expect(text(html)).toContain('❌ Video file size must be less than 100MB Upgrade to Pro for videos up to 2GB and 60 minutes');
    expect(html).toContain('href="/subscription-tiers"');
  });

  it('has no link when upgrading would not help', () => {
    expect(field({ kind: 'error', text: '❌ Video file size must be less than 2GB' })).not.toContain('<a ');
  });
});

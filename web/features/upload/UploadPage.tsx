import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { VIDEO_CATEGORIES, type VideoCategorySlug } from '../../../shared/categories.ts';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { UPLOAD_MESSAGES, UPLOAD_STAGES } from '../../../shared/schemas/studio.ts';
import { SignInButton } from '../../components/SignInButton.tsx';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { isCreator } from '../../stores/roles.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import {
  checkDraft,
  checkThumbnailFile,
  checkVideoFile,
  crossed,
  formatBytes,
  offersUpgrade,
  sizeLabel,
  UPGRADE_PATH,
  upgradeOfferText,
  videoLimitBytes,
  type DraftField,
  type UploadTier,
} from './uploadChecks.ts';
import { bytesProgressText, STAGE_LABELS } from './uploadProgress.ts';
import { useUploadFlow, type UploadFlow } from './useUploadFlow.ts';
import { useUploadTier } from './useUploadTier.ts';
import './UploadPage.css';

/** Spec section 9: home 2 s after a successful upload. */
const REDIRECT_AFTER_UPLOAD_MS = 2_000;
const UPLOADED = '✅ Video uploaded successfully!';

/** /upload: the form for creators, a sign-in prompt for visitors. */
export function UploadPage() {
  useDocumentTitle('Upload video');
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);

  if (status === 'loading' || status === 'pending') return <StatusMessage kind="loading" title="Loading..." />;
  if (!user) {
    return (
      <StatusMessage kind="info" title={UPLOAD_MESSAGES.signInToUpload}>
        <SignInButton />
      </StatusMessage>
    );
  }
  if (!isCreator(user)) {
    return (
      <StatusMessage kind="error" title={AUTH_MESSAGES.accessDenied}>
        <p>Uploading videos needs a creator account.</p>
      </StatusMessage>
    );
  }
  return <UploadForm key={user.id} userId={user.id} />;
}

/** `upgrade`: the refusal can be lifted by moving to Pro, so the note links to the tiers page. */
type FileNote = { kind: 'hint' | 'error'; text: string; upgrade?: boolean };
const NO_FILE: FileNote = { kind: 'hint', text: UPLOAD_MESSAGES.noFile };

function describeFile(file: File): FileNote {
  return { kind: 'hint', text: `${file.name} (${formatBytes(file.size)})` };
}

function UploadForm({ userId }: { userId: string }) {
  const knownTier = useUploadTier(userId);
  // Until the plan is known, only what no plan allows is refused here.
  const tier = knownTier ?? 'pro';
  const { flow, start, cancel } = useUploadFlow(userId);
  const navigate = useNavigate();
  const ids = useId();
  const fields = useRef<Partial<Record<DraftField, HTMLElement | null>>>({});

  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState<VideoCategorySlug>(VIDEO_CATEGORIES[0].slug);
  const [video, setVideo] = useState<File | null>(null);
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [videoNote, setVideoNote] = useState<FileNote>(NO_FILE);
  const [thumbnailNote, setThumbnailNote] = useState<FileNote>(NO_FILE);
  const [problem, setProblem] = useState<{ field: DraftField; message: string } | null>(null);

  useEffect(() => {
    if (flow.status !== 'done') return;
    const timer = setTimeout(() => void navigate('/'), REDIRECT_AFTER_UPLOAD_MS);
    return () => clearTimeout(timer);
  }, [flow.status, navigate]);

  const chooseFile =
    (
      check: (file: File) => string | null,
      setFile: (file: File | null) => void,
      setNote: (note: FileNote) => void,
      upgrade: (file: File) => boolean = () => false,
    ) =>
    (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0] ?? null;
      setProblem(null);
      if (!file) {
        setFile(null);
        setNote(NO_FILE);
        return;
      }
      const refused = check(file);
      if (refused) {
        // The input forgets a refused file, so what it shows matches what would be sent.
        event.target.value = '';
        setFile(null);
        setNote({ kind: 'error', text: refused, upgrade: upgrade(file) });
        return;
      }
      setFile(file);
      setNote(describeFile(file));
    };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const signedIn = useAuth.getState().status === 'signed-in';
    const found = checkDraft({ title, description, video, thumbnail, signedIn });
    setProblem(found);
    if (found) {
      fields.current[found.field]?.focus();
      return;
    }
    if (!video || !thumbnail) return;
    void start({ title, description, category, video, thumbnail });
  };

  const busy = flow.status === 'uploading' || flow.status === 'done';
  const invalid = (field: DraftField) => problem?.field === field || undefined;
  const problemId = `${ids}-problem`;
  const describedBy = (field: DraftField, noteId?: string) =>
    [noteId, problem?.field === field ? problemId : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <section className="upload" aria-labelledby={`${ids}-heading`}>
      <h1 id={`${ids}-heading`} className="upload__title">
        Upload video
      </h1>
      <form className="upload__form" noValidate onSubmit={submit}>
        <fieldset className="upload__fields" disabled={busy}>
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-title`}>
              Title
            </label>
            <input
              id={`${ids}-title`}
              ref={(el) => void (fields.current.title = el)}
              className="field__control"
              type="text"
              maxLength={200}
              value={title}
              aria-invalid={invalid('title')}
              aria-describedby={describedBy('title')}
              onChange={(e) => setTitle(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-description`}>
              Description
            </label>
            <textarea
              id={`${ids}-description`}
              ref={(el) => void (fields.current.description = el)}
              className="field__control"
              maxLength={5000}
              value={description}
              aria-invalid={invalid('description')}
              aria-describedby={describedBy('description')}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-category`}>
              Category
            </label>
            <select
              id={`${ids}-category`}
              className="field__control"
              value={category}
              onChange={(e) => setCategory(e.target.value as VideoCategorySlug)}
            >
              {VIDEO_CATEGORIES.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <FileField
            id={`${ids}-video`}
            label="Video file"
            accept="video/*"
            hint={knownTier ? `Up to ${sizeLabel(videoLimitBytes(knownTier))} (${knownTier === 'pro' ? 'Pro' : 'Free'} plan)` : 'Checking your plan...'}
            note={videoNote}
            inputRef={(el) => void (fields.current.video = el)}
            invalid={invalid('video')}
            problemId={problem?.field === 'video' ? problemId : undefined}
            onChange={chooseFile(
              (file) => checkVideoFile(file, tier),
              setVideo,
              setVideoNote,
              (file) => offersUpgrade(file, tier),
            )}
          />
          <FileField
            id={`${ids}-thumbnail`}
            label="Thumbnail image"
            accept="image/*"
            note={thumbnailNote}
            inputRef={(el) => void (fields.current.thumbnail = el)}
            invalid={invalid('thumbnail')}
            problemId={problem?.field === 'thumbnail' ? problemId : undefined}
            onChange={chooseFile(checkThumbnailFile, setThumbnail, setThumbnailNote)}
          />
          {problem && (
            <p id={problemId} className="upload__problem" role="alert">
              {problem.message}
            </p>
          )}
          <button type="submit" className="button button--primary upload__submit">
            {flow.status === 'uploading' ? 'Uploading...' : 'Upload Video'}
          </button>
        </fieldset>
      </form>
      <UploadStatus flow={flow} tier={tier} onCancel={cancel} />
    </section>
  );
}

interface FileFieldProps {
  id: string;
  label: string;
  accept: string;
  hint?: string;
  note: FileNote;
  inputRef: (el: HTMLInputElement | null) => void;
  invalid: true | undefined;
  problemId: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

export function FileField({ id, label, accept, hint, note, inputRef, invalid, problemId, onChange }: FileFieldProps) {
  const noteId = `${id}-note`;
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        ref={inputRef}
        className="field__control"
        type="file"
        accept={accept}
        aria-invalid={invalid ?? (note.kind === 'error' || undefined)}
        aria-describedby={[noteId, hint ? hintId : undefined, problemId].filter(Boolean).join(' ')}
        onChange={onChange}
      />
      <p id={noteId} className={note.kind === 'error' ? 'field__error' : 'field__hint'} role={note.kind === 'error' ? 'alert' : undefined}>
        {note.text}
        {note.upgrade && (
          <>
            {' '}
            <UpgradeLink />
          </>
        )}
      </p>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

function UpgradeLink() {
  return (
    <Link className="upload__upgrade" to={UPGRADE_PATH}>
      {upgradeOfferText()}
    </Link>
  );
}

const NOTICES = {
  reconnecting: 'Connection lost. Resuming...',
  resuming: 'Resuming your earlier upload of this file...',
} as const;

/** The bar with its stage label and byte count while uploading; then the outcome. */
export function UploadStatus({ flow, tier, onCancel }: { flow: UploadFlow; tier: UploadTier; onCancel: () => void }) {
  if (flow.status === 'idle') return null;
  if (flow.status === 'cancelled') {
    return (
      <p className="upload__outcome upload__outcome--cancelled" role="status">
        Upload cancelled.
      </p>
    );
  }
  if (flow.status === 'failed') {
    return (
      <div className="upload__outcome upload__outcome--failed" role="alert">
        <h2 className="upload__outcome-title">{crossed(UPLOAD_MESSAGES.uploadFailed)}</h2>
        <p className="upload__outcome-text">{flow.reason}</p>
        {flow.httpStatus === 413 && tier === 'free' && (
          <p className="upload__outcome-text">
            <UpgradeLink />
          </p>
        )}
      </div>
    );
  }
  const percent = flow.status === 'done' ? UPLOAD_STAGES.metadata : flow.step.percent;
  const label = flow.status === 'done' ? 'Upload complete' : STAGE_LABELS[flow.step.stage];
  const bytes = flow.status === 'uploading' ? flow.bytes : null;
  const notice = flow.status === 'uploading' ? flow.notice : null;
  return (
    <div className="upload__progress">
      <div className="upload__progress-row">
        <progress
          className="upload__bar"
          max={100}
          value={percent}
          aria-label="Upload progress"
          aria-valuenow={percent}
          aria-valuetext={`${percent}% - ${label}`}
        />
        <span className="upload__stage" aria-hidden="true">
          {percent}% · {label}
        </span>
      </div>
      {bytes && (
        <p className="upload__bytes" data-testid="upload-bytes">
          {bytesProgressText(bytes.sent, bytes.total)}
        </p>
      )}
      {/* Always present while uploading, so screen readers hear the notice when it appears. */}
      {flow.status === 'uploading' && (
        <p className="upload__notice" role="status">
          {notice ? NOTICES[notice] : null}
        </p>
      )}
      {flow.status === 'uploading' && (
        <button type="button" className="button button--ghost upload__cancel" onClick={onCancel}>
          Cancel upload
        </button>
      )}
      {flow.status === 'done' && (
        <p className="upload__outcome upload__outcome--done" role="status">
          {UPLOADED}
        </p>
      )}
    </div>
  );
}

import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { myProfileRoute, profileImageRoute, updateProfileRoute, UPLOAD_MESSAGES, type OwnProfile } from '../../../shared/schemas/studio.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { profilePath } from '../../lib/paths.ts';
import { uploadWithProgress } from '../../lib/uploadWithProgress.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { checkProfileImage } from './studioChecks.ts';

/** The navbar shows the signed-in user's name and picture; ask the server for them again after a change. */
const refreshSessionUser = () => void useAuth.getState().load();

export function ProfileTab() {
  const [attempt, setAttempt] = useState(0);
  const state = useApiRead(`profile#${attempt}`, (signal) => request(myProfileRoute, { signal }));
  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading your profile..." />;
  if (state.status === 'error') {
    return (
      <StatusMessage kind="error" title={isApiError(state.error) ? state.error.message : 'Failed to load your profile.'}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </StatusMessage>
    );
  }
  return <ProfileEditor initial={state.data.profile} />;
}

function ProfileEditor({ initial }: { initial: OwnProfile }) {
  const [profile, setProfile] = useState(initial);
  const onChange = (next: OwnProfile) => {
    setProfile(next);
    refreshSessionUser();
  };
  return (
    <div className="studio-profile">
      <p className="studio-profile__public">
        Your public profile: <Link to={profilePath(profile.username)}>{profilePath(profile.username)}</Link>
      </p>
      <div className="studio-profile__images">
        <ImageUpload kind="avatar" label="Profile picture" profile={profile} onUploaded={onChange} />
        <ImageUpload kind="cover" label="Cover image" profile={profile} onUploaded={onChange} />
      </div>
      <DetailsForm profile={profile} onSaved={onChange} />
    </div>
  );
}

type Note = { kind: 'ok' | 'error'; text: string } | null;

function DetailsForm({ profile, onSaved }: { profile: OwnProfile; onSaved: (profile: OwnProfile) => void }) {
  const ids = useId();
  const [displayName, setDisplayName] = useState(profile.display_name);
  const [bio, setBio] = useState(profile.bio);
  const [saving, setSaving] = useState(false);
  const [note, setNote] = useState<Note>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const name = displayName.trim();
    if (name === '') {
      setNote({ kind: 'error', text: 'Please enter a display name.' });
      return;
    }
    setSaving(true);
    setNote(null);
    try {
      const reply = await request(updateProfileRoute, { body: { display_name: name, bio: bio.trim() } });
      setDisplayName(reply.profile.display_name);
      setBio(reply.profile.bio);
      setNote({ kind: 'ok', text: 'Profile saved.' });
      onSaved(reply.profile);
    } catch (error) {
      setNote({ kind: 'error', text: isApiError(error) ? error.message : 'Failed to save the profile.' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="studio-profile__form" noValidate onSubmit={(e) => void save(e)}>
      <h2 className="studio-profile__heading">Details</h2>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-name`}>
          Display name
        </label>
        <input
          id={`${ids}-name`}
          className="field__control"
          type="text"
          required
          maxLength={100}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-bio`}>
          Bio
        </label>
        <textarea id={`${ids}-bio`} className="field__control" maxLength={2000} value={bio} onChange={(e) => setBio(e.target.value)} />
      </div>
      <div className="studio-profile__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </button>
        {note && (
          <p className={note.kind === 'ok' ? 'studio-profile__ok' : 'field__error'} role={note.kind === 'ok' ? 'status' : 'alert'}>
            {note.text}
          </p>
        )}
      </div>
    </form>
  );
}

interface ImageUploadProps {
  kind: 'avatar' | 'cover';
  label: string;
  profile: OwnProfile;
  onUploaded: (profile: OwnProfile) => void;
}

function ImageUpload({ kind, label, profile, onUploaded }: ImageUploadProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = kind === 'avatar' ? profile.profile_image_url : profile.cover_image_url;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    const refused = checkProfileImage(file);
    setError(refused);
    if (refused) {
      input.value = '';
      return;
    }
    const form = new FormData();
    form.append('image', file, file.name);
    setBusy(true);
    try {
      const reply = await uploadWithProgress(profileImageRoute, { params: { kind }, form });
      onUploaded(reply.profile);
    } catch {
      setError(UPLOAD_MESSAGES.profileUploadFailed);
    } finally {
      setBusy(false);
      input.value = '';
    }
  };

  return (
    <div className={`studio-image studio-image--${kind}`}>
      <h2 className="studio-profile__heading" id={`${id}-heading`}>
        {label}
      </h2>
      <div className="studio-image__preview">
        {kind === 'avatar' ? (
          <Avatar name={profile.display_name} imageUrl={current} size={96} />
        ) : current ? (
          <img src={current} alt="" width={480} height={120} decoding="async" />
        ) : (
          <span className="studio-image__empty">No cover image</span>
        )}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {kind === 'avatar' ? 'Upload a new profile picture' : 'Upload a new cover image'}
        </label>
        <input
          id={id}
          className="field__control"
          type="file"
          accept="image/*"
          disabled={busy}
          aria-invalid={error !== null || undefined}
          aria-describedby={`${id}-note`}
          onChange={(e) => void choose(e)}
        />
        <p id={`${id}-note`} className={error ? 'field__error' : 'field__hint'} role={error ? 'alert' : undefined}>
          {error ?? (busy ? 'Uploading...' : 'An image under 5 MB.')}
        </p>
      </div>
    </div>
  );
}

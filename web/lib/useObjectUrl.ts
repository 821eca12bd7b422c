import { useEffect, useMemo } from 'react';
import { inlineUrlOf } from './inlineImages.ts';

/**
 * Object URLs for Blobs on screen, one per Blob, counted by the components showing it and
 * revoked shortly after the last one lets go. The delay lets a component that remounts at once
 * (StrictMode, a list reordered) take the same URL back instead of showing a revoked one.
 */
interface Entry {
  url: string;
  users: number;
  revokeTimer: ReturnType<typeof setTimeout> | null;
}

const entries = new Map<Blob, Entry>();
const REVOKE_DELAY_MS = 1_000;

function scheduleRevoke(blob: Blob, entry: Entry) {
  if (entry.revokeTimer) clearTimeout(entry.revokeTimer);
  entry.revokeTimer = setTimeout(() => {
    if (entry.users > 0) return;
    if (entry.url.startsWith('blob:')) URL.revokeObjectURL(entry.url);
    entries.delete(blob);
  }, REVOKE_DELAY_MS);
}

function entryFor(blob: Blob): Entry {
  let entry = entries.get(blob);
  if (!entry) {
    entry = { url: inlineUrlOf(blob) ?? URL.createObjectURL(blob), users: 0, revokeTimer: null };
    entries.set(blob, entry);
    // A URL made for a render that never commits goes the same way as one let go.
    scheduleRevoke(blob, entry);
  }
  return entry;
}

function retain(blob: Blob) {
  const entry = entryFor(blob);
  entry.users++;
  if (entry.revokeTimer) clearTimeout(entry.revokeTimer);
  entry.revokeTimer = null;
}

function release(blob: Blob) {
  const entry = entries.get(blob);
  if (!entry) return;
  entry.users--;
  if (entry.users <= 0) scheduleRevoke(blob, entry);
}

/**
 * An object URL for `blob` (or the data: URL the page already has for it, see inlineImages.ts), valid while the component shows it (undefined for no blob). Made
 * during the render itself, so the image gets its address in the same commit; the effect only
 * counts the user and never renders again.
 */
export function useObjectUrl(blob: Blob): string;
export function useObjectUrl(blob: Blob | null): string | undefined;
export function useObjectUrl(blob: Blob | null): string | undefined {
  const url = useMemo(() => (blob ? entryFor(blob).url : undefined), [blob]);
  useEffect(() => {
    if (!blob) return;
    retain(blob);
    return () => release(blob);
  }, [blob]);
  return url;
}

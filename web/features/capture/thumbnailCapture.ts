/** The last step of the capture chain: the video's thumbnail stands in for the frame. */
import type { CapturedFrame } from './types.ts';

export async function fetchThumbnail(thumbnailUrl: string | null, time: number, signal?: AbortSignal): Promise<Omit<CapturedFrame, 'source'>> {
  if (!thumbnailUrl) throw new Error('The video has no thumbnail');
  const res = await fetch(thumbnailUrl, { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  if (!res.ok) throw new Error(`The thumbnail answered ${res.status}`);
  const blob = await res.blob();
  // Decoding proves it is an image and gives its size.
  const bitmap = await createImageBitmap(blob);
  const { width, height } = bitmap;
  bitmap.close();
  // The time the viewer asked for: the thumbnail stands in for that frame.
  return { blob, width, height, timestamp: time };
}

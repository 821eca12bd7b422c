import type { ReadyScreenshot } from '../../stores/pendingMerch.ts';

/** The video's thumbnail as the first screenshot; null when there is none or it is not an image. */
export async function loadThumbnail(url: string | null): Promise<ReadyScreenshot | null> {
  if (!url) return null;
  const response = await fetch(url);
  if (!response.ok) return null;
  const blob = await response.blob();
  if (!blob.type.startsWith('image/')) return null;
  const bitmap = await createImageBitmap(blob);
  const { width, height } = bitmap;
  bitmap.close();
  return { blob, width, height, source: 'thumbnail', timestamp: null };
}

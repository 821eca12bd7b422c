/**
 * Recognises a file by its first bytes, never by its name or declared type. Anything not
 * recognised (HTML, SVG, ZIP, executables, text) is refused before it is looked at further.
 */
export type VideoContainer = 'mp4' | 'webm';
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

export const SNIFF_BYTES = 16;

export function sniffVideo(head: Uint8Array): VideoContainer | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return 'mp4';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'webm';
  return null;
}

export function sniffImage(head: Uint8Array): ImageFormat | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && ascii(1, 4) === 'PNG' && head[0] === 0x89) return 'png';
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (head.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif';
  return null;
}

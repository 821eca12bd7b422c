/**
 * Small images the page already holds as data: URLs, by their Blob. A screenshot slot shows its
 * preview from the data: URL where one is known: the image decodes in the page at once, where a
 * blob: URL is first fetched through the browser's blob registry (about 10 ms more before the
 * slot paints). The Blob stays what is stored; the URL lives only in memory with it.
 */
const urls = new WeakMap<Blob, string>();

export function rememberInlineUrl(blob: Blob, dataUrl: string): void {
  urls.set(blob, dataUrl);
}

export function inlineUrlOf(blob: Blob): string | undefined {
  return urls.get(blob);
}

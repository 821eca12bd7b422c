/** Where the navbar search goes: `/search?q=<trimmed text>`, or nowhere when the trimmed text is empty. */
export function searchTarget(text: string): string | null {
  const query = text.trim();
  return query === '' ? null : `/search?q=${encodeURIComponent(query)}`;
}

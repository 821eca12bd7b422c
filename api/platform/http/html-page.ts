/**
 * The server's own HTML pages (the embedded providers' hosted pages: payment, Connect onboarding,
 * sign-in, parcel tracking): text escaped for HTML, and the shell the hosted pages share. No
 * script and no inline style, so every page passes the app's CSP.
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A hosted test-mode page: its stylesheet, a main of `mainClass`, the FrameMerch brand line and `body` (already HTML). */
export function hostedPage(opts: { title: string; stylesheet: string; mainClass: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(opts.title)}</title>
<link rel="stylesheet" href="${escapeHtml(opts.stylesheet)}">
</head>
<body>
<main class="${escapeHtml(opts.mainClass)}">
<p class="brand">FrameMerch <span class="badge">Test mode</span></p>
${opts.body}
</main>
</body>
</html>
`;
}

/** The tracking page of an embedded print-shop parcel: plain HTML, no script, no inline style. */
import type { EmbeddedPodStatus } from '../../platform/db/schema.ts';
import { escapeHtml } from '../../platform/http/html-page.ts';
import { PARCEL_STATUS_LABELS } from './embedded-pod.ts';

const STEPS: EmbeddedPodStatus[] = ['pending', 'inprocess', 'fulfilled', 'delivered'];

export function parcelPage(parcel: { trackingNumber: string; status: EmbeddedPodStatus; updatedAt: Date }): string {
  const reached = STEPS.indexOf(parcel.status);
  const steps = STEPS.map((s, i) => `<li>${escapeHtml(PARCEL_STATUS_LABELS[s])}${i <= reached ? ' &#10003;' : ''}</li>`).join('');
  const number = escapeHtml(parcel.trackingNumber);
  const status = escapeHtml(PARCEL_STATUS_LABELS[parcel.status]);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Parcel ${number}: ${status}</title></head>
<body>
<main>
<h1>Parcel ${number}</h1>
<p>Status: <strong data-status="${escapeHtml(parcel.status)}">${status}</strong></p>
<p>Last update: <time datetime="${parcel.updatedAt.toISOString()}">${escapeHtml(parcel.updatedAt.toUTCString())}</time></p>
<ol>${steps}</ol>
</main>
</body>
</html>
`;
}

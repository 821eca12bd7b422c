/**
 * ACH payouts by NACHA file, the admin's side: the period's file to download (for the bank), and
 * the confirmation that it was uploaded, which pays the period's entries still processing. The
 * confirmation hands each entry's PayoutEvent to applyPayoutEvent with the run's deps, so a
 * payout moves, releases nothing, sets its dates and emails its creator exactly as a provider's
 * webhook would; an event applied before (a confirmation cut short and repeated) changes nothing.
 */
import { PAYOUT_RUN_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { confirmNachaUpload, nachaFileFor, type NachaFile, type NachaOrigin } from '../../integrations/payouts/index.ts';
import { AppError } from '../../platform/http/errors.ts';
import { applyPayoutEvent, type PayoutRunDeps } from './run.ts';
import type { Period } from './run-rules.ts';

export interface AchFileDeps extends Pick<PayoutRunDeps, 'db' | 'opener' | 'now'> {
  /** The platform bank's details (config.nacha); null when ACH payouts do not go by NACHA file. */
  origin: NachaOrigin | null;
}

/**
 * The period's NACHA file, made now. It holds the receivers' full bank numbers: never log it.
 * 404 when NACHA files are not configured or the period has no ACH entries.
 */
export async function achFileOf(deps: AchFileDeps, period: Period): Promise<NachaFile> {
  if (!deps.origin) throw AppError.notFound(PAYOUT_RUN_MESSAGES.achNotConfigured);
  const file = await nachaFileFor(deps.db, period, { origin: deps.origin, opener: deps.opener, createdAt: deps.now?.() ?? new Date() });
  if (!file) throw AppError.notFound(PAYOUT_RUN_MESSAGES.achFileNotFound);
  return file;
}

/** The admin uploaded the period's file: answers how many entries this marked paid (0 once they all are). */
export async function confirmAchUpload(deps: PayoutRunDeps, period: Period): Promise<number> {
  const at = deps.now?.() ?? new Date();
  const events = await confirmNachaUpload(deps.db, period, (event) => applyPayoutEvent(deps, event), at);
  deps.log?.(`ach ${period}: upload confirmed, ${events.length} entries paid`);
  return events.length;
}

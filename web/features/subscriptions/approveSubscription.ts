/**
 * /approve-subscription's logic, apart from React so it can be tested: read the link's address
 * and token, present them to the server once (POST /api/subscriptions/approve), and show
 * 'Verifying...' for at least APPROVAL_VERIFY_MS (spec: approval verify 2 s) while it answers.
 *  - no address or no token: the invalid-link state at once, nothing asked;
 *  - 200: approved, with the address;
 *  - 400 (used, expired, forged, another address's: the server does not say which): the invalid-link state;
 *  - 429, or the server not reached or failing: a message, and the page offers to try again.
 */
import { APPROVAL_VERIFY_MS, SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { isApiError } from '../../lib/ApiError.ts';

export interface ApprovalLink {
  email: string;
  token: string;
}

export type ApprovalOutcome = { kind: 'approved'; email: string } | { kind: 'invalid' } | { kind: 'failed'; message: string };
export type ApprovalState = { kind: 'verifying' } | ApprovalOutcome;

/** The link's address and token, or null when either is missing (the invalid-link state). */
export function approvalLinkFrom(search: string | URLSearchParams): ApprovalLink | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const email = params.get('email')?.trim() ?? '';
  const token = params.get('token')?.trim() ?? '';
  return email && token ? { email, token } : null;
}

/** The server's answer to the link, as the page shows it. */
export async function checkApprovalLink(approve: (link: ApprovalLink) => Promise<unknown>, link: ApprovalLink): Promise<ApprovalOutcome> {
  try {
    await approve(link);
    return { kind: 'approved', email: link.email };
  } catch (error) {
    if (isApiError(error) && error.status === 400) return { kind: 'invalid' };
    if (isApiError(error) && error.status === 429) return { kind: 'failed', message: error.serverError ?? SUBSCRIPTION_MESSAGES.approvalTooManyAttempts };
    return { kind: 'failed', message: SUBSCRIPTION_MESSAGES.approvalCheckFailed };
  }
}

const asked = new Map<string, Promise<ApprovalOutcome>>();

/**
 * Presents a link to the server once for the life of the page: a link works once, and React runs
 * an effect twice in development (StrictMode), so a second request would find it used. A failure
 * worth retrying (the server not reached) is forgotten, so that 'Try again' asks again.
 */
export function approveOnce(approve: (link: ApprovalLink) => Promise<unknown>, link: ApprovalLink): Promise<ApprovalOutcome> {
  const key = `${link.email}\n${link.token}`;
  let outcome = asked.get(key);
  if (!outcome) {
    outcome = checkApprovalLink(approve, link).then((result) => {
      if (result.kind === 'failed') asked.delete(key);
      return result;
    });
    asked.set(key, outcome);
  }
  return outcome;
}

/**
 * 'Verifying...' lasts until both the server has answered and APPROVAL_VERIFY_MS has passed;
 * null when the page was left meanwhile (the wait rejects).
 */
export async function verifyApproval(outcome: Promise<ApprovalOutcome>, wait: (ms: number) => Promise<void>): Promise<ApprovalOutcome | null> {
  try {
    const [result] = await Promise.all([outcome, wait(APPROVAL_VERIFY_MS)]);
    return result;
  } catch {
    return null;
  }
}

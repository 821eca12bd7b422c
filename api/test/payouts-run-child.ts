/**
 * `npm run payouts:run` (scripts/payouts-run.ts) with a fake payout provider, for the test that
 * kills it: the provider keeps what it was asked and what it paid in a file (PAYOUT_FAKE_LEDGER),
 * written before it answers, so it survives a kill -9 as a real provider's records would; a key
 * it has already taken gets the first answer again and pays nothing more. The answer for a new
 * key is fixed by the key (mostly processing or paid, one in eight failed). Each step of the run
 * is a line on standard output, for the test to kill the process at; with PAYOUT_CHILD_STEP=1
 * the process stops after each line until a byte arrives on standard input, so a kill lands
 * exactly after the step the test chose (whatever the machine's speed).
 *
 *   node --import tsx api/test/payouts-run-child.ts --period YYYY-MM
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, readSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { payoutsRunCommand } from '../../scripts/payouts-run.ts';
import type { PayoutMethodName } from '../../shared/schemas/payouts.ts';
import type { PayoutProvider, PayoutRequest, PayoutSubmission } from '../integrations/payouts/index.ts';

export interface LedgerLine {
  kind: 'request' | 'take';
  key: string;
  payoutId: string;
  amountCents: number;
  method: PayoutMethodName;
  submission?: PayoutSubmission;
}

export function answerFor(key: string): PayoutSubmission['status'] {
  const n = createHash('sha256').update(key).digest()[0]!;
  return n % 8 === 0 ? 'failed' : n % 2 === 0 ? 'paid' : 'processing';
}

export function readLedger(file: string): LedgerLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim().endsWith('}'))
    .map((l) => JSON.parse(l) as LedgerLine);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Prints a step; in step mode, waits (blocking everything, as a stopped process would) for the test's go-ahead. */
function step(line: string): void {
  console.log(line);
  if (process.env.PAYOUT_CHILD_STEP !== '1') return;
  const go = Buffer.alloc(1);
  for (;;) {
    try {
      if (readSync(0, go, 0, 1, null) === 1) return;
      process.exit(3); // standard input closed: the test has gone
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

function fileProvider(method: PayoutMethodName, file: string, taken: Map<string, PayoutSubmission>): PayoutProvider {
  return {
    method,
    kind: 'embedded',
    async submit(request: PayoutRequest): Promise<PayoutSubmission> {
      const line = (kind: LedgerLine['kind'], submission?: PayoutSubmission) =>
        appendFileSync(file, `${JSON.stringify({ kind, key: request.idempotencyKey, payoutId: request.payoutId, amountCents: request.amountCents, method, submission })}\n`);
      line('request');
      step(`provider ${request.idempotencyKey}: asked`);
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 15));
      const known = taken.get(request.idempotencyKey);
      if (known) return known;
      const status = answerFor(request.idempotencyKey);
      const submission: PayoutSubmission = { providerReference: `fake_${request.idempotencyKey}`, status, ...(status === 'failed' ? { failureReason: 'Receiver unregistered' } : {}) };
      taken.set(request.idempotencyKey, submission);
      line('take', submission);
      step(`provider ${request.idempotencyKey}: took`);
      return submission;
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.env.PAYOUT_FAKE_LEDGER;
  if (!file) throw new Error('PAYOUT_FAKE_LEDGER names no file');
  const taken = new Map<string, PayoutSubmission>();
  for (const l of readLedger(file)) if (l.kind === 'take' && l.submission) taken.set(l.key, l.submission);
  const providers = { paypal: fileProvider('paypal', file, taken), ach: fileProvider('ach', file, taken), stripe_connect: fileProvider('stripe_connect', file, taken) };
  const code = await payoutsRunCommand(process.argv.slice(2), { providerFor: (m) => providers[m], log: step });
  process.exit(code);
}

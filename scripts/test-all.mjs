// The whole test suite: typecheck, lint, unit and API tests (vitest), the production build
// with its bundle budget, and the browser tests (Playwright). Every step runs even when one
// before it failed; the last line is the plain "N passed, N failed" summary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cache = path.join(root, '.cache');
mkdirSync(cache, { recursive: true });
const vitestJson = path.join(cache, 'vitest-report.json');
const playwrightJson = path.join(cache, 'playwright-report.json');

const args = process.argv.slice(2);
const apiOnly = args.includes('--api-only');
const only = args.filter((a) => !a.startsWith('--'));
const steps = [
  { name: 'typecheck', cmd: ['npm', 'run', '-s', 'typecheck'], kind: 'check' },
  { name: 'lint', cmd: ['npm', 'run', '-s', 'lint'], kind: 'check' },
  {
    name: 'unit and API tests',
    cmd: ['npx', 'vitest', 'run', ...(apiOnly ? ['--project', 'api'] : []), '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    kind: 'vitest',
    report: vitestJson,
  },
  { name: 'build and bundle budget', cmd: ['npm', 'run', '-s', 'build'], kind: 'check' },
  { name: 'browser tests', cmd: ['npx', 'playwright', 'test'], kind: 'playwright', report: playwrightJson },
].filter((s) => only.length === 0 || only.some((o) => s.name.includes(o)));

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function count(step, ok) {
  if (step.kind === 'check') return { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  if (!existsSync(step.report)) return { passed: 0, failed: 1, skipped: 0 };
  const r = JSON.parse(readFileSync(step.report, 'utf8'));
  if (step.kind === 'vitest') {
    const failedFiles = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
    const c = { passed: r.numPassedTests, failed: r.numFailedTests + failedFiles, skipped: r.numPendingTests + r.numTodoTests };
    if (!ok && c.failed === 0) c.failed = 1;
    return c;
  }
  const s = r.stats ?? {};
  const c = { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0, flaky: flakyTests(r) };
  if (!ok && c.failed === 0) c.failed = 1;
  return c;
}

/** The titles of the tests that failed and then passed on their retry. */
function flakyTests(report) {
  const found = [];
  const walk = (suite, parents) => {
    const titles = suite.title ? [...parents, suite.title] : parents;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) if (t.status === 'flaky') found.push(`[${t.projectName}] ${[...titles, spec.title].join(' › ')}`);
    }
    for (const child of suite.suites ?? []) walk(child, titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return found;
}

for (const step of steps) {
  if (step.report) rmSync(step.report, { force: true });
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const r = spawnSync(step.cmd[0], step.cmd.slice(1), { cwd: root, stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  const c = count(step, ok);
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  const flaky = c.flaky?.length ? `, ${c.flaky.length} of them flaky (failed, then passed on the retry)` : '';
  lines.push(`${ok ? 'ok  ' : 'FAIL'} ${step.name}: ${c.passed} passed${flaky}, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''} (${Math.round((Date.now() - started) / 1000)} s)`);
  for (const title of c.flaky ?? []) lines.push(`       flaky: ${title}`);
}

console.log('\n=== summary ===');
for (const l of lines) console.log(l);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
if (process.env.TEST_SUMMARY_FILE) writeFileSync(process.env.TEST_SUMMARY_FILE, JSON.stringify(totals));
process.exit(totals.failed > 0 ? 1 : 0);

// Reports the gzipped JavaScript that loading "/" costs: the entry chunk with everything it
// imports statically, plus the lazily loaded home page chunk and its static imports.
// Fails the build when it is over the budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const HOME_ROUTE_MODULES = ['features/feed/HomePage.tsx'];

const dist = path.resolve(import.meta.dirname, '../dist/web');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Not in the build manifest: ${key}`);
    seen.add(key);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

const entries = Object.entries(manifest).filter(([, c]) => c.isEntry).map(([k]) => k);
const keys = closure([...entries, ...HOME_ROUTE_MODULES]);
const rows = [...keys]
  .map((k) => manifest[k].file)
  .filter((f) => f.endsWith('.js'))
  .map((file) => {
    const buf = readFileSync(path.join(dist, file));
    return { file, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log('JavaScript loaded by "/":');
for (const r of rows) console.log(`  ${r.file.padEnd(44)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzip`);
const total = rows.reduce((s, r) => s + r.gzip, 0);
console.log(`  total ${kb(total)} gzip (budget ${BUDGET_KB} KB)`);
if (total > BUDGET_KB * 1024) {
  console.error(`Over budget by ${kb(total - BUDGET_KB * 1024)}`);
  process.exit(1);
}

// ESLint rule: no import cycle between the API's folders (platform/<part>, integrations/<service>,
// modules/<domain>, seed). import-x/no-cycle sees cycles between files; two modules can still
// depend on each other through different files, which this rule reports at the import that
// closes the loop. The folder graph is read once per lint run from the files on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;
const isTest = (file) => file.endsWith('.test.ts') || file.includes(`${path.sep}test${path.sep}`);

/** 'api/modules/orders/x.ts' -> 'modules/orders'; 'api/app.ts' -> null (the composition root). */
export function folderOf(apiDir, file) {
  const rel = path.relative(apiDir, file).split(path.sep);
  if (rel[0] === '..' || rel.length < 2) return null;
  if (['platform', 'integrations', 'modules'].includes(rel[0])) return rel.length > 2 ? `${rel[0]}/${rel[1]}` : null;
  return rel[0] === 'test' ? null : rel[0];
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts') && !isTest(p)) out.push(p);
  }
  return out;
}

/** Folder -> folder -> the first file and import that makes the edge. */
function folderGraph(apiDir) {
  const graph = new Map();
  for (const file of sourceFiles(apiDir)) {
    const from = folderOf(apiDir, file);
    if (!from) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(apiDir, path.resolve(path.dirname(file), spec));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, file);
    }
  }
  return graph;
}

/** The folders on a cycle, each mapped to its strongly connected component (Tarjan). */
export function cyclicFolders(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const result = new Map();
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) for (const c of component) result.set(c, component);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return result;
}

const cache = new Map();

/** Changes when a file or folder is added or removed below dir. */
function treeSignature(dir) {
  let sig = String(statSync(dir).mtimeMs);
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sig += `|${name}:${treeSignature(p)}`;
  }
  return sig;
}

export default {
  meta: { type: 'problem', schema: [], messages: { cycle: "'{{from}}' and '{{to}}' import each other (cycle: {{cycle}}): one of them must not depend on the other." } },
  create(context) {
    const file = context.filename;
    const apiDir = path.join(context.cwd, 'api');
    const from = folderOf(apiDir, file);
    if (!from || isTest(file)) return {};
    // The graph is kept for the lint run: while no file comes or goes, and for a few seconds at most.
    const signature = treeSignature(apiDir);
    let entry = cache.get(apiDir);
    if (!entry || entry.signature !== signature || Date.now() - entry.at > 5_000) {
      entry = { at: Date.now(), signature, cyclic: cyclicFolders(folderGraph(apiDir)) };
      cache.set(apiDir, entry);
    }
    const component = entry.cyclic.get(from);
    if (!component) return {};
    return {
      ImportDeclaration(node) {
        const spec = node.source.value;
        if (typeof spec !== 'string' || !spec.startsWith('.')) return;
        const to = folderOf(apiDir, path.resolve(path.dirname(file), spec));
        if (to && to !== from && component.includes(to)) {
          context.report({ node, messageId: 'cycle', data: { from, to, cycle: [...component].sort().join(', ') } });
        }
      },
    };
  },
};

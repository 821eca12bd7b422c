import { ESLint } from 'eslint';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(filePath: string, code: string) {
  return ruleErrors(filePath, code, 'no-restricted-imports');
}

async function ruleErrors(filePath: string, code: string, ruleId: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const sqlErrors = (filePath: string, code: string) => ruleErrors(filePath, code, 'no-restricted-syntax');

// The first lint of a file follows its imports through the whole tree for the cycle rule: slow once, then cached.
describe('import boundaries', { timeout: 120_000 }, () => {
  it('keep shared/ free of our other trees and of Node', async () => {
    expect(await boundaryErrors('shared/x.ts', "import { app } from '../api/app.ts';\nexport const y = app;\n")).not.toEqual([]);
    expect(await boundaryErrors('shared/x.ts', "import { readFile } from 'node:fs';\nexport const y = readFile;\n")).not.toEqual([]);
    expect(await boundaryErrors('shared/x.ts', "import { MAX_SCREENSHOTS } from './constants.ts';\nexport const y = MAX_SCREENSHOTS;\n")).toEqual([]);
  });

  it('let api/ and workers/ import only shared/', async () => {
    expect(await boundaryErrors('api/x.ts', "import { request } from '../web/lib/api.ts';\nexport const y = request;\n")).not.toEqual([]);
    expect(await boundaryErrors('workers/x.ts', "import { app } from '../api/app.ts';\nexport const y = app;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/x.ts', "import { MAX_SCREENSHOTS } from '../shared/constants.ts';\nexport const y = MAX_SCREENSHOTS;\n")).toEqual([]);
  });

  it('keep web/ away from api/ and features away from the app layer', async () => {
    expect(await boundaryErrors('web/lib/x.ts', "import { app } from '../../api/app.ts';\nexport const y = app;\n")).not.toEqual([]);
    expect(await boundaryErrors('web/features/feed/x.ts', "import { App } from '../../app/App.tsx';\nexport const y = App;\n")).not.toEqual([]);
  });

  it('keep each feature to itself', async () => {
    expect(await boundaryErrors('web/features/player/x.ts', "import { cropToPng } from '../print-tool/printProcessing.ts';\nexport const y = cropToPng;\n")).not.toEqual([]);
    expect(await boundaryErrors('web/features/player/x.ts', "import { VideoPage } from './VideoPage.tsx';\nexport const y = VideoPage;\n")).toEqual([]);
    expect(await boundaryErrors('web/features/player/x.ts', "import { useCart } from '../../stores/cart/cartStore.ts';\nexport const y = useCart;\n")).toEqual([]);
  });

  it('keep components/, lib/ and stores/ below the features', async () => {
    expect(await boundaryErrors('web/components/x.ts', "import { CartModal } from '../features/cart/CartModal.tsx';\nexport const y = CartModal;\n")).not.toEqual([]);
    expect(await boundaryErrors('web/lib/x.ts', "import { captureFrame } from '../features/capture/captureChain.ts';\nexport const y = captureFrame;\n")).not.toEqual([]);
    expect(await boundaryErrors('web/stores/x.ts', "import { App } from '../app/App.tsx';\nexport const y = App;\n")).not.toEqual([]);
    expect(await boundaryErrors('web/stores/x.ts', "import { request } from '../lib/api.ts';\nexport const y = request;\n")).toEqual([]);
  });
});

describe('API layers', { timeout: 120_000 }, () => {
  const select = "import type { Kysely } from 'kysely';\nexport const find = (db: Kysely<{ t: { id: string } }>) => db.selectFrom('t').selectAll().execute();\n";
  const rawSql = "import { sql } from 'kysely';\nexport const q = sql`select 1`;\n";

  it('keep SQL in repository.ts files', async () => {
    expect(await sqlErrors('api/modules/videos/service.ts', select)).not.toEqual([]);
    expect(await sqlErrors('api/modules/videos/routes.ts', rawSql)).not.toEqual([]);
    expect(await sqlErrors('api/platform/jobs/runner.ts', select)).not.toEqual([]);
    expect(await sqlErrors('api/seed/seed-demo.ts', rawSql)).not.toEqual([]);
    expect(await sqlErrors('api/platform/db/database.ts', "import type pg from 'pg';\nexport const drop = (c: pg.Client) => c.query('DROP DATABASE x');\n")).not.toEqual([]);
    expect(await sqlErrors('api/modules/videos/repository.ts', select)).toEqual([]);
    expect(await sqlErrors('api/modules/videos/repository.ts', rawSql)).toEqual([]);
    expect(await sqlErrors('api/platform/db/migrate.ts', rawSql)).not.toEqual([]);
    expect(await sqlErrors('api/platform/db/repository.ts', rawSql)).toEqual([]);
  });

  it('keep the database out of routes', async () => {
    expect(await boundaryErrors('api/modules/videos/routes.ts', "import type { Kysely } from 'kysely';\nexport type X = Kysely<object>;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/modules/videos/routes.ts', "import { findVideo } from './repository.ts';\nexport const y = findVideo;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/modules/videos/studio.routes.ts', "import type { DB } from '../../platform/db/schema.ts';\nexport type X = DB;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/modules/videos/routes.ts', "import { feedPage } from './service.ts';\nexport const y = feedPage;\n")).toEqual([]);
    expect(await boundaryErrors('api/modules/videos/service.ts', "import { findVideo } from './repository.ts';\nexport const y = findVideo;\n")).toEqual([]);
  });

  it("let a module reach another only through that module's index.ts", async () => {
    expect(await boundaryErrors('api/modules/checkout/service.ts', "import { x } from '../orders/order-status.ts';\nexport const y = x;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/modules/checkout/service.ts', "import { x } from '../orders/index.ts';\nexport const y = x;\n")).toEqual([]);
    expect(await boundaryErrors('api/app.ts', "import { x } from './modules/orders/routes.ts';\nexport const y = x;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/app.ts', "import { x } from './modules/orders/index.ts';\nexport const y = x;\n")).toEqual([]);
    expect(await boundaryErrors('api/seed/seed-demo.ts', "import { x } from '../modules/accounts/service.ts';\nexport const y = x;\n")).not.toEqual([]);
  });

  it('keep platform below integrations, and both below modules', async () => {
    expect(await boundaryErrors('api/platform/jobs/runner.ts', "import { x } from '../../modules/orders/index.ts';\nexport const y = x;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/platform/mail/plugin.ts', "import { x } from '../../integrations/smtp/index.ts';\nexport const y = x;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/integrations/printful/plugin.ts', "import { x } from '../../modules/orders/index.ts';\nexport const y = x;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/integrations/printful/plugin.ts', "import { x } from '../../platform/jobs/runner.ts';\nexport const y = x;\n")).toEqual([]);
    expect(await boundaryErrors('api/modules/orders/service.ts', "import { x } from '../../integrations/printful/index.ts';\nexport const y = x;\n")).toEqual([]);
    expect(await boundaryErrors('api/modules/orders/service.ts', "import { x } from '../../integrations/printful/printful.ts';\nexport const y = x;\n")).not.toEqual([]);
    expect(await boundaryErrors('api/app.ts', "import { x } from './integrations/stripe/plugin.ts';\nexport const y = x;\n")).not.toEqual([]);
  });

  it('find an import cycle', async () => {
    // no-cycle follows imports on disk, so the two files of the cycle are written for the check.
    const dir = path.join(root, 'api', `.lint-cycle-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const a = path.join(dir, 'a.ts');
      writeFileSync(a, "import { b } from './b.ts';\nexport const a = () => b;\n");
      writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a.ts';\nexport const b = () => a;\n");
      writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a.ts';\nexport const c = () => a;\n");
      const lint = async (file: string) => ((await eslint.lintFiles([file]))[0]?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-cycle');
      expect(await lint(a)).not.toEqual([]);
      expect(await lint(path.join(dir, 'c.ts'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('find two modules that depend on each other through different files', async () => {
    // No file cycle here (x -> b/index -> y; z -> a/index -> w), but modules a and b need each other.
    const a = path.join(root, 'api', 'modules', `lint-a-${process.pid}`);
    const b = path.join(root, 'api', 'modules', `lint-b-${process.pid}`);
    const write = (file: string, code: string) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, code);
    };
    try {
      write(path.join(a, 'w.ts'), 'export const w = 1;\n');
      write(path.join(a, 'index.ts'), "export { w } from './w.ts';\n");
      write(path.join(a, 'x.ts'), `import { y } from '../lint-b-${process.pid}/index.ts';\nexport const x = y;\n`);
      write(path.join(b, 'y.ts'), 'export const y = 2;\n');
      write(path.join(b, 'index.ts'), "export { y } from './y.ts';\n");
      write(path.join(b, 'z.ts'), `import { w } from '../lint-a-${process.pid}/index.ts';\nexport const z = w;\n`);
      const lint = async (file: string) => ((await eslint.lintFiles([file]))[0]?.messages ?? []).map((m) => m.ruleId);
      expect(await lint(path.join(a, 'x.ts'))).toContain('framemerch/no-folder-cycle');
      expect(await lint(path.join(b, 'z.ts'))).toContain('framemerch/no-folder-cycle');
      expect(await lint(path.join(a, 'x.ts'))).not.toContain('import-x/no-cycle');
      rmSync(path.join(b, 'z.ts'));
      expect(await lint(path.join(a, 'x.ts'))).not.toContain('framemerch/no-folder-cycle');
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });
});

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
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
    expect(await boundaryErrors('web/features/player/x.ts', "import { useCart } from '../../lib/cart/cartStore.ts';\nexport const y = useCart;\n")).toEqual([]);
  });
});

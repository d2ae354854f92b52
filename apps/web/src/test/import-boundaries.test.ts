import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The lint rule that keeps the web app's direction, shared → features → app (decisions 0105, 0126),
 * run through ESLint on code given as text at a file path that does not exist: a scratch file
 * that is never written.
 */
function repoRoot(from = process.cwd()): string {
  return existsSync(join(from, 'eslint.config.js')) ? from : repoRoot(dirname(from));
}
const eslint = new ESLint({ cwd: repoRoot() });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, {
    filePath: `apps/web/src/${filePath}`,
  });
  return result!.messages
    .filter((m) => m.ruleId === 'boundaries/dependencies')
    .map((m) => m.message);
}

describe('the web import boundaries (eslint-plugin-boundaries)', () => {
  // Loading ESLint's config and parser takes seconds on a busy machine: once, before the tests.
  beforeAll(() => restricted('lib/scratch.ts', 'const x = 1;'), 60_000);

  it('fails a feature importing another feature, at any folder depth', async () => {
    expect(
      await restricted(
        'features/reservations/routes/scratch.tsx',
        "import { x } from '../../checkout/routes/checkout-authenticated-screen';",
      ),
    ).toEqual([expect.stringContaining('A feature never imports another feature')]);
    expect(
      await restricted(
        'features/club/scratch.ts',
        "import { x } from '../reservations/selection';",
      ),
    ).toHaveLength(1);
    expect(
      await restricted(
        'features/laps/components/scratch.tsx',
        "import { x } from '../../laps-admin/components/board-fields';",
      ),
    ).toHaveLength(1);
  });

  it('fails a lazy import() of another feature or of app/', async () => {
    expect(
      await restricted(
        'features/reservations/routes/scratch.tsx',
        "const x = import('../../checkout/routes/checkout-authenticated-screen');",
      ),
    ).toEqual([expect.stringContaining('A feature never imports another feature')]);
    expect(
      await restricted('features/club/scratch.ts', "const x = import('../../app/providers');"),
    ).toEqual([expect.stringContaining('A feature never imports app/')]);
    expect(
      await restricted(
        'features/club/routes/scratch.tsx',
        "const x = import('../components/club-panel');",
      ),
    ).toEqual([]);
  });

  it('fails a feature importing app/', async () => {
    expect(
      await restricted(
        'features/displays/routes/scratch.tsx',
        "import { x } from '../../../app/route-access';",
      ),
    ).toEqual([expect.stringContaining('A feature never imports app/')]);
  });

  it('fails components/ and lib/ importing a feature or app/', async () => {
    expect(
      await restricted(
        'components/checkout/scratch.tsx',
        "import { x } from '../../features/club/club-rules';",
      ),
    ).toHaveLength(1);
    expect(
      await restricted('lib/scratch.ts', "import { x } from '../app/providers';"),
    ).toHaveLength(1);
  });

  it('passes a feature importing itself, components/, lib/ and test/, and app/ importing features', async () => {
    const own = `import { x } from '../components/checkout-button';
import { y } from '../../../lib/api/get-balance';
import { z } from '../../../components/page-title';
import { w } from '../../../test/render-app';
const v = [y, z, w];`;
    expect(await restricted('features/reservations/routes/scratch.tsx', own)).toEqual([]);
    expect(
      await restricted(
        'app/screens/scratch.tsx',
        "import { x } from '../../features/club/club-rules';",
      ),
    ).toEqual([]);
  });
});

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real results files written by simulator servers (see fixtures/ac-results/README.md). */
export const AC_RESULTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/ac-results',
);

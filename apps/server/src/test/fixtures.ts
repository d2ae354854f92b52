import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real results files written by simulator servers (see fixtures/ac-results/README.md). */
export const AC_RESULTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/ac-results',
);

/** rFactor 2 results XML (UserData/Log/Results), real files (see fixtures/rf2-results/README.md). */
export const RF2_RESULTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/rf2-results',
);
/** Le Mans Ultimate results XML: made here, labelled so (fixtures/lmu-results/README.md). */
export const LMU_RESULTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/lmu-results',
);
/** RaceRoom dedicated-server results JSON, real files (fixtures/r3e-results/README.md). */
export const R3E_RESULTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures/r3e-results',
);

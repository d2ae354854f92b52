// Golden files: the expected output lives in src/__golden__/. `UPDATE_GOLDEN=1 npx vitest run`
// rewrites them; review the diff before committing.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

const dir = path.join(import.meta.dirname, '..', '__golden__');

export function expectGolden(name: string, actual: string): void {
  const file = path.join(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file)) {
    throw new Error(`golden file ${name} is missing; run with UPDATE_GOLDEN=1 to create it`);
  }
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

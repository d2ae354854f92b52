// The web app built for `npm start` only when one of its sources is newer than the last build
// (a second start of an unchanged install skips Vite entirely; decision 0035).
import fs from 'node:fs';
import path from 'node:path';
import { newestMtime, root, run } from './lib.mjs';

const webDist = path.join(root, 'apps/web/dist');
const stamp = path.join(webDist, '.built-from');
const SOURCES = ['apps/web/src', 'apps/web/public', 'packages/contract/src'];
const INPUTS = ['package-lock.json', 'apps/web/index.html', 'apps/web/vite.config.ts'];

const newestSource = () => newestMtime([...SOURCES, ...INPUTS]);

/** Builds when needed; returns true when it built. */
export async function buildWeb() {
  const sourcesAt = newestSource();
  const fresh =
    fs.existsSync(path.join(webDist, 'index.html')) &&
    fs.existsSync(stamp) &&
    Number(fs.readFileSync(stamp, 'utf8')) >= sourcesAt;
  if (fresh) return false;
  if ((await run('npm', ['run', 'build', '--silent'])) !== 0) throw new Error('web build failed');
  fs.writeFileSync(stamp, String(sourcesAt));
  return true;
}

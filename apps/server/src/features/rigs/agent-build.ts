// The rig agent build this server ships (issue 43, decision 0121): the executable
// `npm run package:rig` made, with its build.json (version, sha256, size) beside it. Rigs compare
// the version with their own and download the file between sessions.
import fs from 'node:fs';
import path from 'node:path';

export interface AgentBuild {
  version: string;
  sha256: string;
  size: number;
}

/** The shipped build, or null when there is none (or its file does not match its build.json). */
export function shippedBuild(exe: string): AgentBuild | null {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(path.dirname(exe), 'build.json'), 'utf8'));
    if (typeof meta.version !== 'string' || typeof meta.sha256 !== 'string') return null;
    const size = fs.statSync(exe).size;
    if (meta.size !== size) return null;
    return { version: meta.version, sha256: meta.sha256, size };
  } catch {
    return null;
  }
}

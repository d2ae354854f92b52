import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

/**
 * The server as `npm start` runs it (node with apps/server/node-flags.json, so under the same
 * heap limit), from the sources through tsx, on an existing database. Memory limits are only
 * real in a process of their own: a vitest worker has node's default heap.
 */
export async function startServerProcess(opts: {
  databaseUrl: string;
  jwtSecret: string;
  env?: Record<string, string>;
}) {
  const flags = JSON.parse(
    fs.readFileSync(path.join(serverDir, 'node-flags.json'), 'utf8'),
  ) as string[];
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-proc-'));
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      JWT_SECRET: opts.jwtSecret,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(`exited with ${signal ?? code}`)),
  );
  let exit: string | null = null;
  void exited.then((how) => (exit = how));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exit) throw new Error(`server ${exit} before it listened:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not listen in time:\n${output}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    port,
    pid: child.pid!,
    /** How the process ended, or null while it runs. */
    exit: () => exit,
    output: () => output,
    /** Peak resident memory so far, in MB (VmHWM). */
    peakRssMb(): number {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async stop() {
      if (!exit) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (!exit) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

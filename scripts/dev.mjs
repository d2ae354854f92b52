// `npm run dev`: the API with reload on :3000 and Vite with hot reload on :5173.
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ensureInstalled, root } from './lib.mjs';

await ensureInstalled();
const env = {
  ...process.env,
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
  // No load balancer to wait for (decision 0080): a reload is not held up by idle connections.
  SHUTDOWN_IDLE_WAIT_SECONDS: process.env.SHUTDOWN_IDLE_WAIT_SECONDS ?? '0',
};
const children = [
  spawn('npm', ['run', 'dev', '-w', '@paddock/server'], { cwd: root, stdio: 'inherit', env }),
  spawn('npm', ['run', 'dev', '-w', '@paddock/web'], { cwd: root, stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGINT'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

#!/usr/bin/env node
// A stand-in for `steam.exe -applaunch 805550`: starts the "game" as a process of its own (its
// own image name, set with a title, as AC2-Win64-Shipping.exe is its own program) and exits at
// once, leaving the game running. Usage: node fake-launcher.mjs <game script> <game args…>
import { spawn } from 'node:child_process';

const [game, ...args] = process.argv.slice(2);
// The game is told who started it: once this launcher is gone, its parent is no longer this.
const child = spawn(process.execPath, [game, ...args], {
  detached: true,
  stdio: 'ignore',
  env: { ...process.env, FAKE_LAUNCHER_PID: String(process.pid) },
});
child.unref();
child.once('spawn', () => process.exit(0));

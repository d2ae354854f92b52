#!/usr/bin/env node
// A stand-in for ACC's game (AC2-Win64-Shipping.exe): reads the serverList.json the agent wrote (UTF-16 LE, as the
// game's own files), says which server it joins, and stays running until it is stopped.
// Usage: node fake-acc-sim.mjs <ACC Config folder> <state file> [image name]
// With an image name it runs under that name (its process title: /proc/PID/cmdline, what a
// rig's process list shows), as the real game runs as AC2-Win64-Shipping.exe.
import fs from 'node:fs';

const [configDir, stateFile, imageName] = process.argv.slice(2);
if (imageName) process.title = imageName;
let server = null;
try {
  const bytes = fs.readFileSync(`${configDir}/serverList.json`);
  if (bytes[0] !== 0xff || bytes[1] !== 0xfe) throw new Error('serverList.json is not UTF-16 LE');
  server = JSON.parse(bytes.subarray(2).toString('utf16le'));
} catch (e) {
  if (e.code !== 'ENOENT') throw e;
}
fs.appendFileSync(
  stateFile,
  `${JSON.stringify({ pid: process.pid, launcher: Number(process.env.FAKE_LAUNCHER_PID) || null, server, started: Date.now() })}\n`,
);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000);

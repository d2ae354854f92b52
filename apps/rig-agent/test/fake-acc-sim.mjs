#!/usr/bin/env node
// A stand-in for ACC's acc.exe: reads the serverList.json the agent wrote (UTF-16 LE, as the
// game's own files), says which server it joins, and stays running until it is stopped.
// Usage: node fake-acc-sim.mjs <ACC Config folder> <state file>
import fs from 'node:fs';

const [configDir, stateFile] = process.argv.slice(2);
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
  `${JSON.stringify({ pid: process.pid, server, started: Date.now() })}\n`,
);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000);

#!/usr/bin/env node
// A stand-in for acs.exe: reads the race.ini the agent wrote, says where it is, and stays
// running until it is stopped. Usage: node fake-sim.mjs <ac cfg folder> <state file>
import fs from 'node:fs';

const [cfgDir, stateFile] = process.argv.slice(2);
const raceIni = fs.readFileSync(`${cfgDir}/race.ini`, 'utf8');
const track = /^TRACK=(.*)$/m.exec(raceIni)?.[1]?.trim() ?? '';
fs.appendFileSync(
  stateFile,
  `${JSON.stringify({ pid: process.pid, track, started: Date.now() })}\n`,
);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000);

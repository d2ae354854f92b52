#!/usr/bin/env node
// A stand-in for acs.exe: reads the race.ini the agent wrote, says where it is, and stays
// running until it is stopped. Usage: node fake-sim.mjs <ac cfg folder> <state file> [image name]
// (with an image name it runs under that name, as acs.exe is its own program).
import fs from 'node:fs';

const [cfgDir, stateFile, imageName] = process.argv.slice(2);
if (imageName) process.title = imageName;
const raceIni = fs.readFileSync(`${cfgDir}/race.ini`, 'utf8');
const track = /^TRACK=(.*)$/m.exec(raceIni)?.[1]?.trim() ?? '';
fs.appendFileSync(
  stateFile,
  `${JSON.stringify({ pid: process.pid, launcher: Number(process.env.FAKE_LAUNCHER_PID) || null, track, started: Date.now() })}\n`,
);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000);

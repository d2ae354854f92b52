// Everything that touches a simulator goes through this one interface, so ACC or another sim is
// one more adapter. The agent owns the socket, the queue and the states; an adapter only knows
// how to turn a race event into the sim's files and how to start and stop the sim.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { LaunchCommand, RemoteServer } from './config';
import type { Car, LapIngest, RaceEvent, Skin, Track } from './types';

/** What a sim needs to know about the race, resolved from the event's ids. */
export interface SeatRace {
  event: RaceEvent;
  /** The seat (calendar) this rig is. */
  seat: number;
  seatName: string;
  track: Track | null;
  car: Car | null;
  skin: Skin | null;
  driverName: string;
  /** A party's dedicated server, when the event is a party and one is known. */
  remote: RemoteServer | null;
}

export interface SimAdapter {
  readonly name: string;
  /** Writes the sim's files for this race; returns the paths written. Throws when it cannot. */
  prepare(race: SeatRace): Promise<string[]>;
  /** Starts the sim; `onExit` is called once when it ends, whoever ended it. */
  launch(onExit: (code: number | null) => void): Promise<ChildProcess>;
  /** Stops the sim if it runs; resolves when it is gone. */
  stop(): Promise<void>;
  readonly running: boolean;
  /**
   * A sim left running by an earlier run of the agent (the agent was restarted, the game was
   * not): watch it as if launched now. True when there is one.
   */
  resume?(onExit: (code: number | null) => void): boolean;
  /** Laps the sim drives, as they come; returns how to stop watching. */
  watchLaps?(onLap: (lap: LapIngest) => void, log: (line: string) => void): () => void;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const kill = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
};

/** The pids of running processes with this image name (`AC2-Win64-Shipping.exe`). */
export type ProcessFinder = (imageName: string) => Promise<number[]>;

/** The last part of a path, with either separator (a Windows path under wine has `\`). */
const imageOf = (file: string) => file.split(/[\\/]/).pop() ?? '';
const sameImage = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** `tasklist /FO CSV /NH` lines → pids of that image (the "INFO: No tasks…" line has none). */
export function parseTasklist(text: string, imageName: string): number[] {
  const pids: number[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^"([^"]*)","(\d+)"/.exec(line.trim());
    if (m && sameImage(m[1], imageName)) pids.push(Number(m[2]));
  }
  return pids;
}

const run = (command: string, args: string[]) =>
  new Promise<string>((resolve) =>
    execFile(command, args, { windowsHide: true }, (_e, stdout) => resolve(String(stdout ?? ''))),
  );

/**
 * Windows: tasklist filtered by image name. Linux: each process's program (the first word of
 * /proc/PID/cmdline, which is also the name a Windows game shows under wine or Proton).
 * Elsewhere: ps. Never the agent itself.
 */
export const findProcesses: ProcessFinder = async (imageName) => {
  if (process.platform === 'win32')
    return parseTasklist(
      await run('tasklist', ['/FI', `IMAGENAME eq ${imageName}`, '/FO', 'CSV', '/NH']),
      imageName,
    );
  const pids: number[] = [];
  if (fs.existsSync('/proc/self/cmdline')) {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      let program: string;
      try {
        program = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0];
      } catch {
        continue; // ended meanwhile, or not ours to read
      }
      if (sameImage(imageOf(program), imageName)) pids.push(Number(entry));
    }
    return pids;
  }
  for (const line of (await run('ps', ['-A', '-o', 'pid=,comm='])).split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (m && Number(m[1]) !== process.pid && sameImage(imageOf(m[2].trim()), imageName))
      pids.push(Number(m[1]));
  }
  return pids;
};

export interface LaunchedProcessOptions {
  /** How processes are found by image name (tests may pass their own). */
  find?: ProcessFinder;
  /** How long a launcher that exited may take to bring the game up (Steam: updates, EAC). */
  handoverMs?: number;
  /** How often the game is looked for, and checked. */
  pollMs?: number;
}

/**
 * Starting and stopping the configured program: shared by the adapters. The pid is kept in
 * `pidFile` while it runs, so a restarted agent finds the sim it started (and neither starts a
 * second one nor loses the way to stop it).
 *
 * With `launch.gameProcess` (decision 0118) the launch command may be a launcher (`steam.exe
 * -applaunch 805550`) that hands over and exits, or stays (Steam itself): the game is the
 * process of that image name, found whichever way it started. It runs until that process
 * ends; Exit ends that process, and leaves the launcher alone (it may be Steam).
 */
export class LaunchedProcess {
  private child: ChildProcess | null = null;
  /** The game's pid when it is not the launched process (found by name, or resumed). */
  private adopted: number | null = null;
  /** Since when the game is looked for (a launcher was started; the game has not shown yet). */
  private lookingSince: number | null = null;
  private poll: NodeJS.Timeout | null = null;
  private finish: ((code: number | null) => void) | null = null;
  private readonly find: ProcessFinder;
  private readonly handoverMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly launch: LaunchCommand,
    private readonly pidFile?: string,
    options: LaunchedProcessOptions = {},
  ) {
    this.find = options.find ?? findProcesses;
    this.handoverMs = options.handoverMs ?? 120_000;
    this.pollMs = options.pollMs ?? 250;
  }

  get running() {
    return this.child !== null || this.adopted !== null || this.lookingSince !== null;
  }

  /** The game's image name when the launch command is not the game itself. */
  private get gameImage(): string | null {
    const name = this.launch.gameProcess?.trim();
    if (!name || sameImage(imageOf(this.launch.command), name)) return null;
    return name;
  }

  private rememberPid(pid: number) {
    if (this.pidFile) fs.writeFileSync(this.pidFile, String(pid));
  }

  private forgetPid() {
    if (this.pidFile) fs.rmSync(this.pidFile, { force: true });
  }

  /** Watches until the sim ends; `onExit` once. */
  private watch(onExit: (code: number | null) => void) {
    let done = false;
    this.finish = (code) => {
      if (done) return;
      done = true;
      if (this.poll) clearInterval(this.poll);
      this.poll = null;
      this.finish = null;
      this.child = null;
      this.adopted = null;
      this.lookingSince = null;
      this.forgetPid();
      onExit(code);
    };
    let looking = false;
    this.poll = setInterval(() => {
      if (this.adopted !== null) {
        if (!alive(this.adopted)) this.finish?.(null);
        return;
      }
      const image = this.gameImage;
      if (!image || looking) return;
      looking = true;
      void this.find(image)
        .then((pids) => {
          if (done || this.adopted !== null) return;
          const pid = pids.find((p) => p !== this.child?.pid);
          if (pid !== undefined) {
            this.adopted = pid;
            this.lookingSince = null;
            this.rememberPid(pid);
          } else if (this.lookingSince !== null && Date.now() - this.lookingSince > this.handoverMs)
            // The game never came (Steam could not start it): the seat is not running.
            this.finish?.(null);
        })
        .finally(() => (looking = false));
    }, this.pollMs);
    this.poll.unref();
  }

  resume(onExit: (code: number | null) => void): boolean {
    if (this.running || !this.pidFile || !fs.existsSync(this.pidFile)) return false;
    const pid = Number(fs.readFileSync(this.pidFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) {
      this.forgetPid();
      return false;
    }
    this.adopted = pid;
    this.watch(onExit);
    return true;
  }

  start(onExit: (code: number | null) => void): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    return new Promise((resolve, reject) => {
      const child = spawn(this.launch.command, this.launch.args, {
        cwd: this.launch.cwd,
        stdio: 'ignore',
        windowsHide: false,
      });
      this.child = child;
      child.once('spawn', () => {
        if (child.pid) this.rememberPid(child.pid);
        if (this.gameImage) this.lookingSince = Date.now();
        this.watch(onExit);
        resolve(child);
      });
      child.once('error', (e) => {
        if (this.child === child) this.child = null;
        reject(e);
      });
      child.once('exit', (code) => {
        if (this.child !== child) return;
        this.child = null;
        // A launcher that hands over and exits: the game (found by name, now or within
        // handoverMs of the start) is the sim, not this process.
        if (this.gameImage) return;
        this.finish?.(code);
      });
    });
  }

  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    const gone = async () => {
      while (this.running) await new Promise((r) => setTimeout(r, 50));
    };
    // The game when it is known; the launched program when it is the game. A launcher still
    // running beside a game it started (Steam) is not ours to end.
    const pid = this.adopted ?? (this.gameImage ? null : (this.child?.pid ?? null));
    if (pid === null) {
      // A launcher whose game never came (or has not yet): stop waiting for it.
      this.finish?.(null);
      return;
    }
    if (process.platform === 'win32') {
      // The game may have started children of its own: end the whole tree.
      spawn('taskkill', ['/pid', String(pid), '/t', '/f'], { stdio: 'ignore' });
    } else {
      kill(pid, 'SIGTERM');
    }
    const timer = setTimeout(() => kill(pid, 'SIGKILL'), graceMs);
    await gone();
    clearTimeout(timer);
  }
}

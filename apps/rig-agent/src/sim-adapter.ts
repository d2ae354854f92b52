// Everything that touches a simulator goes through this one interface, so ACC or another sim is
// one more adapter. The agent owns the socket, the queue and the states; an adapter only knows
// how to turn a race event into the sim's files and how to start and stop the sim.
import { spawn, type ChildProcess } from 'node:child_process';
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

/**
 * Starting and stopping the configured program: shared by the adapters. The pid is kept in
 * `pidFile` while it runs, so a restarted agent finds the sim it started (and neither starts a
 * second one nor loses the way to stop it).
 */
export class LaunchedProcess {
  private child: ChildProcess | null = null;
  private adopted: number | null = null;
  private poll: NodeJS.Timeout | null = null;

  constructor(
    private readonly launch: LaunchCommand,
    private readonly pidFile?: string,
  ) {}

  get running() {
    return this.child !== null || this.adopted !== null;
  }

  private forgetPid() {
    if (this.pidFile) fs.rmSync(this.pidFile, { force: true });
  }

  resume(onExit: (code: number | null) => void): boolean {
    if (this.running || !this.pidFile || !fs.existsSync(this.pidFile)) return false;
    const pid = Number(fs.readFileSync(this.pidFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) {
      this.forgetPid();
      return false;
    }
    this.adopted = pid;
    this.poll = setInterval(() => {
      if (alive(pid)) return;
      clearInterval(this.poll!);
      this.poll = null;
      this.adopted = null;
      this.forgetPid();
      onExit(null);
    }, 250);
    this.poll.unref();
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
        if (this.pidFile && child.pid) fs.writeFileSync(this.pidFile, String(child.pid));
        resolve(child);
      });
      child.once('error', (e) => {
        if (this.child === child) this.child = null;
        reject(e);
      });
      child.once('exit', (code) => {
        if (this.child === child) {
          this.child = null;
          this.forgetPid();
        }
        onExit(code);
      });
    });
  }

  async stop(graceMs = 5000): Promise<void> {
    const pid = this.child?.pid ?? this.adopted;
    if (!pid || (this.child && this.child.exitCode !== null)) return;
    const gone = async () => {
      while (this.running) await new Promise((r) => setTimeout(r, 50));
    };
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

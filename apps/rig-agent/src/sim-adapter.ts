// Everything that touches a simulator goes through this one interface, so ACC or another sim is
// one more adapter. The agent owns the socket, the queue and the states; an adapter only knows
// how to turn a race event into the sim's files and how to start and stop the sim.
import { spawn, type ChildProcess } from 'node:child_process';
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
  /** Laps the sim drives, as they come; returns how to stop watching. */
  watchLaps?(onLap: (lap: LapIngest) => void, log: (line: string) => void): () => void;
}

/** Starting and stopping the configured program: shared by the adapters. */
export class LaunchedProcess {
  private child: ChildProcess | null = null;

  constructor(private readonly launch: LaunchCommand) {}

  get running() {
    return this.child !== null;
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
      child.once('spawn', () => resolve(child));
      child.once('error', (e) => {
        if (this.child === child) this.child = null;
        reject(e);
      });
      child.once('exit', (code) => {
        if (this.child === child) this.child = null;
        onExit(code);
      });
    });
  }

  async stop(graceMs = 5000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (process.platform === 'win32' && child.pid) {
      // The game may have started children of its own: end the whole tree.
      spawn('taskkill', ['/pid', String(child.pid), '/t', '/f'], { stdio: 'ignore' });
    } else {
      child.kill('SIGTERM');
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
}

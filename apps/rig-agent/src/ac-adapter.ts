// Assetto Corsa: race.ini and assists.ini in the user's cfg folder (written by
// @paddock/ac-protocol), then the configured launch command (acs.exe by default).
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  writeClientFiles,
  type AcClientAssists,
  type AcClientSession,
  type AcRaceIniInput,
} from '@paddock/ac-protocol/race-ini';
import type { AgentConfig } from './config';
import { watchLapsFile } from './laps-file';
import { LaunchedProcess, type SeatRace, type SimAdapter } from './sim-adapter';
import type { LapIngest } from './types';

/** The race.ini input for one seat of an event. Throws when the event cannot be driven yet. */
export function raceIniInput(race: SeatRace): AcRaceIniInput {
  const { event } = race;
  if (!race.track) throw new Error('The event has no track yet.');
  if (!race.car) throw new Error('The seat has no car (the event allows none).');
  const sessions: AcClientSession[] = [...event.sessions]
    .sort((a, b) => a.ordering - b.ordering)
    .map((s) => ({
      name: s.name,
      type: s.type,
      spawn: s.spawn,
      ...(s.duration_is_laps ? { laps: s.duration } : { minutes: s.duration }),
    }));
  return {
    track: race.track.key,
    trackLayout: race.track.layout,
    car: { model: race.car.key, skin: race.skin?.key ?? '' },
    driver: { name: race.driverName },
    sessions,
    penalties: event.penalties,
    fixedSetup: event.fixed_setup,
    driftMode: event.drift_mode,
    ...(race.remote
      ? {
          remote: {
            serverIp: race.remote.ip,
            serverPort: race.remote.port,
            password: race.remote.password,
          },
        }
      : {}),
  };
}

/**
 * assists.ini from the event's allowed assists: an allowed aid is switched on (the driver may
 * turn it off in the game), one not allowed is off. Damage is off and wear on, as venues run.
 */
export function assistsInput(race: SeatRace): AcClientAssists {
  const on = new Set(race.event.assists);
  return {
    idealLine: on.has('ideal_line'),
    autoBlip: on.has('auto_clutch'),
    stabilityControl: on.has('stability_control') ? 100 : 0,
    autoBrake: false,
    autoShifter: false,
    abs: on.has('abs') ? 'factory' : 'off',
    tractionControl: on.has('traction_control') ? 'factory' : 'off',
    autoClutch: on.has('auto_clutch'),
    visualDamage: true,
    damagePercent: 0,
    fuelRate: true,
    tyreWear: true,
    tyreBlankets: on.has('tyre_blankets'),
    slipstream: true,
  };
}

/** Writes a file so a reader never sees half of it. */
async function writeAtomic(file: string, text: string) {
  const tmp = `${file}.paddock-tmp`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
}

export class AssettoCorsaAdapter implements SimAdapter {
  readonly name = 'Assetto Corsa';
  private readonly process: LaunchedProcess;

  constructor(
    private readonly config: Pick<AgentConfig, 'acCfgDir' | 'launch' | 'lapsFile' | 'dataDir'>,
  ) {
    this.process = new LaunchedProcess(config.launch, path.join(config.dataDir, 'sim.pid'));
  }

  get running() {
    return this.process.running;
  }

  async prepare(race: SeatRace): Promise<string[]> {
    const files = writeClientFiles(raceIniInput(race), assistsInput(race));
    await fs.mkdir(this.config.acCfgDir, { recursive: true });
    const raceIni = path.join(this.config.acCfgDir, 'race.ini');
    const assistsIni = path.join(this.config.acCfgDir, 'assists.ini');
    await writeAtomic(raceIni, files.raceIni);
    await writeAtomic(assistsIni, files.assistsIni);
    return [raceIni, assistsIni];
  }

  launch(onExit: (code: number | null) => void) {
    return this.process.start(onExit);
  }

  stop() {
    return this.process.stop();
  }

  resume(onExit: (code: number | null) => void) {
    return this.process.resume(onExit);
  }

  watchLaps(onLap: (lap: LapIngest) => void, log: (line: string) => void) {
    const file = this.config.lapsFile;
    if (!file) return () => {};
    return watchLapsFile(
      file,
      this.config.dataDir,
      (lap) => onLap({ ...lap, sim: lap.sim ?? 'ac' }),
      log,
    );
  }
}

// Assetto Corsa Competizione on a rig (docs/decisions/0090, 0118, docs/rigs.md): the game is told
// where the party's accServer is (Config/serverList.json) and where to answer broadcasting
// registrations (Config/broadcasting.json), both UTF-16 LE as the game writes its own; then the
// configured launch command starts it, and the game's own process (AC2-Win64-Shipping.exe) is
// the sim whichever launcher started it. The seat's car, race number and driver come from the
// server's entry list (forcedCarModel, overrideDriverInfo), not from the rig.
import fs from 'node:fs/promises';
import path from 'node:path';
import { encodeAccConfigFile } from '@paddock/ac-protocol/acc/server-config';
import type { AgentConfig } from './config';
import { LaunchedProcess, type SeatRace, type SimAdapter } from './sim-adapter';

export interface AccClientFiles {
  'serverList.json'?: string;
  'broadcasting.json': string;
}

/** The game's files for a seat: a party joins its server; a solo seat only broadcasts. */
export function accClientFiles(
  race: SeatRace,
  broadcast: { port: number; password: string },
): AccClientFiles {
  if (!race.track) throw new Error('The event has no track yet.');
  if (race.track.sim !== 'acc') throw new Error(`${race.track.name} is not an ACC track.`);
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  return {
    // The handbook's one key, `leagueServerIP`: the game scans that host for a server instead
    // of the local network (ACC's LAN discovery, UDP 8999; the server answers only with
    // lanDiscovery 1) and lists it. There is no port key: the server's answer carries its port.
    ...(race.remote ? { 'serverList.json': json({ leagueServerIP: race.remote.ip }) } : {}),
    // The SDK's own key name ("upd"): the game reads only that spelling.
    'broadcasting.json': json({
      updListenerPort: broadcast.port,
      connectionPassword: broadcast.password,
      commandPassword: '',
    }),
  };
}

export class AccAdapter implements SimAdapter {
  readonly name = 'Assetto Corsa Competizione';
  private readonly process: LaunchedProcess;

  constructor(
    private readonly config: Pick<
      AgentConfig,
      'accConfigDir' | 'accBroadcast' | 'launch' | 'dataDir'
    >,
  ) {
    this.process = new LaunchedProcess(config.launch, path.join(config.dataDir, 'sim.pid'));
  }

  get running() {
    return this.process.running;
  }

  async prepare(race: SeatRace): Promise<string[]> {
    const files = accClientFiles(race, this.config.accBroadcast);
    await fs.mkdir(this.config.accConfigDir, { recursive: true });
    const written: string[] = [];
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(this.config.accConfigDir, name);
      const tmp = `${file}.paddock-tmp`;
      await fs.writeFile(tmp, encodeAccConfigFile(text));
      await fs.rename(tmp, file);
      written.push(file);
    }
    // A solo seat must not join the last party's server.
    if (!files['serverList.json'])
      await fs.rm(path.join(this.config.accConfigDir, 'serverList.json'), { force: true });
    return written;
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
}

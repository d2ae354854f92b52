// No server: the config and the race.ini of a party seat.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { iniSection, parseIni } from '@paddock/ac-protocol/ini';
import { writeRaceIni } from '@paddock/ac-protocol/race-ini';
import { raceIniInput } from './ac-adapter';
import { ConfigError, loadConfig } from './config';
import { OfflineQueue } from './queue';
import type { SeatRace } from './sim-adapter';
import type { RaceEvent } from './types';

const event: RaceEvent = {
  id: 7,
  calendar: 1,
  party: 3,
  moved_to: null,
  track: 1,
  cars: [2],
  sessions: [
    {
      id: 1,
      event: 7,
      name: 'Qualifying',
      type: 'QUALIFYING',
      spawn: 'PIT',
      ordering: 1,
      duration: 10,
      duration_is_laps: false,
    },
    {
      id: 2,
      event: 7,
      name: 'Practice',
      type: 'PRACTICE',
      spawn: 'PIT',
      ordering: 0,
      duration: 20,
      duration_is_laps: false,
    },
  ],
  entries: [],
  preset: null,
  assists: [],
  penalties: false,
  fixed_setup: false,
  drift_mode: false,
};

describe('race.ini of a party seat', () => {
  it('has [REMOTE] with the server, and the sessions in their order', () => {
    const race = {
      event,
      seat: 1,
      seatName: 'Sim 1',
      track: { key: 'ks_monza', layout: '', name: 'Monza' },
      car: { key: 'ks_mazda_mx5_cup', name: 'MX-5' },
      skin: null,
      driverName: 'Ana',
      remote: { ip: '10.0.0.5', port: 9600, password: 'pw' },
    } as unknown as SeatRace;
    const ini = parseIni(writeRaceIni(raceIniInput(race)));
    const remote = iniSection(ini, 'REMOTE')!.values;
    expect(Object.fromEntries(remote)).toMatchObject({
      ACTIVE: '1',
      SERVER_IP: '10.0.0.5',
      SERVER_PORT: '9600',
      PASSWORD: 'pw',
      NAME: 'Ana',
      REQUESTED_CAR: 'ks_mazda_mx5_cup',
    });
    expect(iniSection(ini, 'SESSION_0')!.values.get('NAME')).toBe('Practice');
    expect(iniSection(ini, 'SESSION_1')!.values.get('DURATION_MINUTES')).toBe('10');
  });

  it('refuses an event without a track', () => {
    expect(() => raceIniInput({ event, track: null } as unknown as SeatRace)).toThrow('no track');
  });
});

describe('configuration', () => {
  it('takes flags over the config file, with Steam defaults for the rest', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-config-'));
    const file = path.join(dir, 'rig.json');
    fs.writeFileSync(file, JSON.stringify({ server: 'https://a.example', driverName: 'Bay 1' }));
    const config = loadConfig(
      ['--config', file, '--key', 'rig_x', '--server', 'https://b.example/'],
      {
        HOME: '/home/sim',
      },
    );
    expect(config).toMatchObject({
      server: 'https://b.example',
      key: 'rig_x',
      driverName: 'Bay 1',
      retryMs: 2000,
    });
    expect(config.launch.command).toMatch(/steamapps\\common\\assettocorsa\\acs\.exe$/);
    expect(config.acCfgDir).toContain(path.join('Documents', 'Assetto Corsa', 'cfg'));
    expect(() => loadConfig([], {})).toThrow(ConfigError);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('the offline queue', () => {
  it('keeps what was not delivered across a restart, and forgets what was', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-queue-'));
    const q = new OfflineQueue(dir);
    const a = q.add({ kind: 'state', state: 'launched' });
    q.add({ kind: 'state', state: 'exited' });
    q.done(a.id);
    fs.appendFileSync(q.file, '{"kind":"lap","id":"x","lap":'); // cut by a power loss
    const again = new OfflineQueue(dir);
    expect(again.list('state').map((i) => i.state)).toEqual(['exited']);
    expect(again.size).toBe(1);
    fs.rmSync(dir, { recursive: true });
  });
});

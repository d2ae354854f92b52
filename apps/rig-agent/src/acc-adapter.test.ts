// No server: what the ACC adapter writes on a rig, and choosing it.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeAccConfigFile } from '@paddock/ac-protocol/acc/server-config';
import { AccAdapter, accClientFiles } from './acc-adapter';
import { ConfigError, loadConfig } from './config';
import type { SeatRace } from './sim-adapter';

const seat = (remote: SeatRace['remote'], sim = 'acc') =>
  ({
    event: { party: remote ? 3 : null },
    track: { key: 'spa', layout: '', name: 'Spa', sim },
    remote,
  }) as unknown as SeatRace;

describe('the ACC adapter', () => {
  it('writes serverList.json for a party and broadcasting.json, UTF-16 LE; a solo seat joins nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-acc-'));
    const adapter = new AccAdapter({
      accConfigDir: path.join(dir, 'Config'),
      accBroadcast: { port: 9100, password: 'pw' },
      launch: { command: 'true', args: [] },
      dataDir: dir,
    });
    const read = (name: string) => {
      const bytes = fs.readFileSync(path.join(dir, 'Config', name));
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xfe]);
      return JSON.parse(decodeAccConfigFile(bytes));
    };
    await adapter.prepare(seat({ ip: '10.0.0.9', port: 9232, password: '' }));
    expect(read('serverList.json')).toEqual({ leagueServerIp: '10.0.0.9', leagueServerPort: 9232 });
    expect(read('broadcasting.json')).toEqual({
      updListenerPort: 9100,
      connectionPassword: 'pw',
      commandPassword: '',
    });
    await adapter.prepare(seat(null));
    expect(fs.existsSync(path.join(dir, 'Config', 'serverList.json'))).toBe(false);
    fs.rmSync(dir, { recursive: true });
  });

  it('refuses an AC track', () => {
    expect(() => accClientFiles(seat(null, 'ac'), { port: 9000, password: '' })).toThrow(
      'not an ACC track',
    );
  });

  it('is chosen by --sim acc, with ACC’s Config folder by default', () => {
    const config = loadConfig(['--key', 'k', '--server', 'https://p.example', '--sim', 'acc'], {
      HOME: '/home/sim',
    });
    expect(config.sim).toBe('acc');
    expect(config.accConfigDir).toContain(path.join('Assetto Corsa Competizione', 'Config'));
    expect(() =>
      loadConfig(['--key', 'k', '--server', 'https://p.example', '--sim', 'iracing'], {}),
    ).toThrow(ConfigError);
  });
});

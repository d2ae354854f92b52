// No server: what the ACC adapter writes on a rig, and choosing it.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeAccConfigFile } from '@paddock/ac-protocol/acc/server-config';
import { AccAdapter, accClientFiles } from './acc-adapter';
import { ACC_GAME_PROCESS, ConfigError, loadConfig } from './config';
import { LaunchedProcess, parseTasklist } from './sim-adapter';
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
    // The handbook's key, exactly: `leagueServerIP`, and nothing else (the game has no port key;
    // the server's LAN discovery answer carries the port).
    expect(read('serverList.json')).toEqual({ leagueServerIP: '10.0.0.9' });
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

  it('is chosen by --sim acc, with ACC’s Config folder and Steam launch by default', () => {
    const config = loadConfig(['--key', 'k', '--server', 'https://p.example', '--sim', 'acc'], {
      HOME: '/home/sim',
    });
    expect(config.sim).toBe('acc');
    expect(config.accConfigDir).toContain(path.join('Assetto Corsa Competizione', 'Config'));
    // steam.exe hands over and exits: the game is followed by its own image name.
    expect(config.launch).toMatchObject({
      command: 'C:\\Program Files (x86)\\Steam\\steam.exe',
      args: ['-applaunch', '805550'],
      gameProcess: 'AC2-Win64-Shipping.exe',
    });
    expect(ACC_GAME_PROCESS).toBe('AC2-Win64-Shipping.exe');
    // Another launch keeps the game's name unless told; --game-process names another.
    const own = loadConfig(
      ['--key', 'k', '--server', 'https://p.example', '--sim', 'acc', '--launch', 'run-acc.cmd'],
      {},
    );
    expect(own.launch).toMatchObject({ command: 'run-acc.cmd', gameProcess: ACC_GAME_PROCESS });
    const ac = loadConfig(
      ['--key', 'k', '--server', 'https://p.example', '--game-process', 'acs.exe'],
      {},
    );
    expect(ac.launch.gameProcess).toBe('acs.exe');
    expect(loadConfig(['--key', 'k', '--server', 'https://p.example'], {}).launch.gameProcess).toBe(
      undefined,
    );
    expect(() =>
      loadConfig(['--key', 'k', '--server', 'https://p.example', '--sim', 'iracing'], {}),
    ).toThrow(ConfigError);
  });

  it('finds the game by image name in tasklist’s answer', () => {
    const out = [
      '"steam.exe","4120","Console","1","98,304 K"',
      '"AC2-Win64-Shipping.exe","7788","Console","1","6,012,344 K"',
      '"ac2-win64-shipping.exe","7790","Console","1","1,024 K"',
      '',
    ].join('\r\n');
    expect(parseTasklist(out, 'AC2-Win64-Shipping.exe')).toEqual([7788, 7790]);
    expect(
      parseTasklist('INFO: No tasks are running which match the specified criteria.', 'x.exe'),
    ).toEqual([]);
  });

  it('a launcher whose game never comes: the seat stops running after the hand-over time', async () => {
    const finder = async () => [] as number[];
    const launched = new LaunchedProcess(
      { command: process.execPath, args: ['-e', ''], gameProcess: 'AC2-Win64-Shipping.exe' },
      undefined,
      { find: finder, handoverMs: 300, pollMs: 20 },
    );
    const exited = new Promise<number | null>((resolve) => void launched.start(resolve));
    await new Promise((r) => setTimeout(r, 150));
    expect(launched.running).toBe(true); // the launcher is gone; the game may still come
    expect(await exited).toBeNull();
    expect(launched.running).toBe(false);
  });
});

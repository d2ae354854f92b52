// What the rig agent's end-to-end tests share: a real Paddock listening on a port, a staff
// member, a temp folder, TCP proxies that can be cut like a venue's network, the launcher socket
// as staff see it, and rigs (a key for a seat and an agent with the fake sim). Whatever a test
// opens is pushed on `cleanups`; each test file decides when to run them (`runCleanups`).
import { expect } from 'vitest';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { iniSection, parseIni } from '@paddock/ac-protocol/ini';
import type { Entry, RaceEvent } from '@paddock/contract/races';
import type { Permission } from '@paddock/contract/accounts';
import { createTestApp, type TestApp } from '../../server/src/test/test-app';
import { bearer, createUser, type CreatedUser } from '../../server/src/test/factories';
import { RigAgent } from '../src/agent';
import { AssettoCorsaAdapter } from '../src/ac-adapter';
import { AccAdapter } from '../src/acc-adapter';
import type { AgentConfig } from '../src/config';

export const FAKE_SIM = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-sim.mjs');
export const FAKE_ACC_SIM = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fake-acc-sim.mjs',
);
/** Starts a fake game as its own process and exits at once, as `steam.exe -applaunch` does. */
export const FAKE_LAUNCHER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fake-launcher.mjs',
);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
  what = 'condition',
) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export interface HarnessOptions {
  /** The temp folder's name prefix. */
  tmpPrefix: string;
  /** The staff member's permissions. */
  permissions: Permission[];
  /** Settings for the app, given the temp folder (made before the app starts). */
  env?: (tmp: string) => Promise<Record<string, string>> | Record<string, string>;
}

export class RigHarness {
  t!: TestApp;
  port = 0;
  tmp = '';
  staff!: CreatedUser;
  readonly cleanups: Array<() => unknown> = [];

  start = async (options: HarnessOptions) => {
    this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), options.tmpPrefix));
    this.t = await createTestApp((await options.env?.(this.tmp)) ?? {});
    await this.t.app.listen({ port: 0, host: '127.0.0.1' });
    this.port = (this.t.app.server.address() as AddressInfo).port;
    this.staff = await createUser(this.t, { isStaff: true, permissions: options.permissions });
  };

  runCleanups = async () => {
    for (const c of this.cleanups.splice(0).reverse()) await c();
  };

  stop = async () => {
    await this.runCleanups();
    await this.t?.close();
    if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
  };

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    this.t.app.inject({
      method,
      url,
      headers: bearer(this.staff.token),
      ...(payload ? { payload } : {}),
    });

  signal = async (eventId: number, body: object) => {
    const res = await this.api('POST', `/api/races/events/${eventId}/signal`, body);
    expect(res.statusCode).toBe(202);
  };

  /** A TCP proxy to the server: `cut()` drops every connection and refuses new ones. */
  network = async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((client) => {
      const upstream = net.connect(this.port, '127.0.0.1');
      sockets.add(client).add(upstream);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => sockets.delete(client));
      upstream.on('close', () => sockets.delete(upstream));
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const proxyPort = (server.address() as AddressInfo).port;
    const handle = {
      url: `http://127.0.0.1:${proxyPort}`,
      cut: () =>
        new Promise<void>((r) => {
          server.close(() => r());
          for (const s of sockets) s.destroy();
        }),
      restore: () => new Promise<void>((r) => server.listen(proxyPort, '127.0.0.1', () => r())),
      close: () => {
        for (const s of sockets) s.destroy();
        server.close();
      },
    };
    this.cleanups.push(handle.close);
    return handle;
  };

  /** Staff's view of an event: the launcher socket with a ticket, merging model_updated. */
  watch = async (eventId: number) => {
    const { ticket } = (await this.api('POST', `/api/races/events/${eventId}/ticket`)).json();
    const ws = new WebSocket(
      `ws://127.0.0.1:${this.port}/ws/launcher/events/${eventId}/?ticket=${ticket}`,
    );
    const view = { event: null as RaceEvent | null };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.type === 'model_updated') view.event = { ...(view.event as RaceEvent), ...m.data };
    });
    await new Promise((r) => ws.once('open', r));
    await until(() => view.event !== null, 5000, 'the whole event');
    this.cleanups.push(() => ws.terminate());
    return {
      ws,
      entry: (calendar: number): Entry | undefined =>
        view.event?.entries.find((e) => e.calendar === calendar),
    };
  };

  /**
   * A rig: a key for the seat, an agent on it with the fake sim and its own temp folders.
   * `again` starts a second agent with an earlier rig's key and folders (a restarted PC).
   */
  rig = async (
    seat: number,
    server: string,
    again?: { config: AgentConfig },
    sim: AgentConfig['sim'] = 'ac',
    /** The sim as a game a launcher starts and leaves running (found by its image name). */
    viaLauncher = sim === 'acc',
  ) => {
    let key = again?.config.key;
    if (!key) {
      const res = await this.api('POST', '/api/rig_keys', { calendar: seat, label: `Rig ${seat}` });
      expect(res.statusCode).toBe(201);
      key = res.json().key as string;
    }
    const dir = again
      ? path.dirname(again.config.dataDir)
      : fs.mkdtempSync(path.join(this.tmp, `rig-${seat}-`));
    const acCfgDir = path.join(dir, 'Documents', 'Assetto Corsa', 'cfg');
    const simLog = path.join(dir, 'fake-sim.jsonl');
    const accConfigDir = path.join(dir, 'Documents', 'Assetto Corsa Competizione', 'Config');
    // One image name per rig: the rigs of a test share this machine, a venue's have one each.
    const gameImage = `${sim === 'acc' ? 'AC2-Win64-Shipping' : 'acs'}-seat${seat}.exe`;
    const game =
      sim === 'acc' ? [FAKE_ACC_SIM, accConfigDir, simLog] : [FAKE_SIM, acCfgDir, simLog];
    const config: AgentConfig = {
      server,
      key,
      keyFile: path.join(dir, 'rig-key.txt'),
      dataDir: path.join(dir, 'data'),
      acCfgDir,
      sim,
      accConfigDir,
      accBroadcast: { port: 9000, password: 'paddock' },
      launch: viaLauncher
        ? {
            command: process.execPath,
            args: [FAKE_LAUNCHER, ...game, gameImage],
            gameProcess: gameImage,
          }
        : { command: process.execPath, args: game },
      lapsFile: path.join(dir, 'laps.jsonl'),
      retryMs: 200,
      retryMaxMs: 1000,
    };
    const log: string[] = [];
    const briefs: string[] = [];
    const agent = new RigAgent({
      config,
      adapter: sim === 'acc' ? new AccAdapter(config) : new AssettoCorsaAdapter(config),
      log: (line) => log.push(line),
      onBrief: (text) => briefs.push(text),
      lapRetryMs: 300,
    });
    this.cleanups.push(() => agent.close({ stopSim: true }));
    // A launched game is not the agent's child: none outlives its test, whatever happened.
    this.cleanups.push(() => {
      for (const s of starts()) if (alive(s.pid)) process.kill(s.pid, 'SIGKILL');
    });
    agent.start();
    await until(() => agent.connected, 15_000, 'the agent to connect');
    /** The fake sim's starts, one line per process. */
    function starts(): Array<{
      pid: number;
      /** The launcher that started it, when there is one. */
      launcher: number | null;
      track?: string;
      server?: Record<string, unknown> | null;
    }> {
      return fs.existsSync(simLog)
        ? fs
            .readFileSync(simLog, 'utf8')
            .split('\n')
            .slice(0, -1) // only whole lines: the fake sim may be writing its first one right now
            .map((l) => JSON.parse(l))
        : [];
    }
    /** What race.ini says about the multiplayer server and the car. */
    const remote = () => {
      const race = parseIni(fs.readFileSync(path.join(acCfgDir, 'race.ini'), 'utf8'));
      expect(race.problems).toEqual([]);
      const values = iniSection(race, 'REMOTE')?.values;
      return {
        active: values?.get('ACTIVE'),
        ip: values?.get('SERVER_IP'),
        port: values?.get('SERVER_PORT'),
        password: values?.get('PASSWORD'),
        car: iniSection(race, 'RACE')?.values.get('MODEL'),
      };
    };
    return { agent, config, acCfgDir, starts, remote, log, briefs };
  };

  /** The change feed as a wall screen reads it: server-sent events of the `boards` topic. */
  changeFeed = async () => {
    const abort = new AbortController();
    const res = await fetch(`${this.url}/api/events?topics=boards`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const changes: Array<{ topic: string; id: number | null }> = [];
    const reader = res.body!.getReader();
    void (async () => {
      let text = '';
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (chunk.done) return;
        text += Buffer.from(chunk.value!).toString('utf8');
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const frame = text.slice(0, end);
          text = text.slice(end + 2);
          if (!/^event: change$/m.test(frame)) continue;
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (data) changes.push(JSON.parse(data));
        }
      }
    })();
    this.cleanups.push(() => abort.abort());
    return changes;
  };
}

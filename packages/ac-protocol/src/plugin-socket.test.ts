import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import type { AcServerMessage } from './codec';
import { startFakeAcServer } from './fake-acserver/fake-acserver';
import { openAcPluginSocket } from './plugin-socket';
import { writeServerConfig } from './server-config';
import { partyRaceByLaps } from './test-fixtures/example-races';

async function freeUdpPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe('openAcPluginSocket against the fake AC server', () => {
  it('hears the session and the cars, and its commands are answered', async () => {
    const messages: AcServerMessage[] = [];
    const commandPort = await freeUdpPort();
    const plugin = await openAcPluginSocket({
      listen: { host: '127.0.0.1', port: 0 },
      server: { host: '127.0.0.1', port: commandPort },
      onMessage: (m) => messages.push(m),
    });
    const files = writeServerConfig({
      ...partyRaceByLaps,
      plugin: { address: `127.0.0.1:${plugin.port}`, localPort: commandPort },
    });
    const server = await startFakeAcServer(files);
    try {
      await until(() => messages.filter((m) => m.type === 'CLIENT_LOADED').length === 3);
      expect(messages.map((m) => m.type).slice(0, 5)).toEqual([
        'VERSION',
        'NEW_SESSION',
        'NEW_CONNECTION',
        'NEW_CONNECTION',
        'NEW_CONNECTION',
      ]);
      await plugin.send({ type: 'GET_CAR_INFO', carId: 2 });
      await until(() => messages.some((m) => m.type === 'CAR_INFO'));
      expect(messages.find((m) => m.type === 'CAR_INFO')).toMatchObject({
        carId: 2,
        driverName: 'Chloé Martin',
      });
    } finally {
      await server.stop();
      await plugin.close();
    }
  });

  it('reports an unreadable datagram from the server and goes on listening', async () => {
    const bad: string[] = [];
    const messages: AcServerMessage[] = [];
    const plugin = await openAcPluginSocket({
      listen: { host: '127.0.0.1', port: 0 },
      server: { host: '127.0.0.1', port: 9 },
      onMessage: (m) => messages.push(m),
      onBadDatagram: (e) => bad.push(e.code),
    });
    const sender = dgram.createSocket('udp4');
    try {
      sender.send(Buffer.from([73, 1]), plugin.port, '127.0.0.1');
      sender.send(Buffer.from([56, 4]), plugin.port, '127.0.0.1');
      await until(() => messages.length === 1);
      expect(bad).toEqual(['TRUNCATED']);
      expect(messages).toEqual([{ type: 'VERSION', version: 4 }]);
    } finally {
      sender.close();
      await plugin.close();
    }
  });
});

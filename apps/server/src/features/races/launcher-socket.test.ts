import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { until } from '../../test/until';
import { rigKeys } from '../../db/schema/laps';
import { rigConnections } from '../../db/schema/races';
import { sha256Hex } from '../../lib/hash';

type Message = { type: string; [key: string]: unknown };
type Client = { ws: WebSocket; messages: Message[]; closed: boolean };

let t: TestApp;
let twin: Awaited<ReturnType<TestApp['sibling']>>;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let customer: CreatedUser;
let base1: string;
let base2: string;
const clients: Client[] = [];

const baseOf = (app: TestApp['app']) =>
  `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  t = await createTestApp({}, { launcherSockets: { pingMs: 1000 } });
  twin = await t.sibling();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  await twin.app.listen({ port: 0, host: '127.0.0.1' });
  base1 = baseOf(t.app);
  base2 = baseOf(twin.app);
  venue = await createVenue(t, { seats: 3 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events'],
  });
  customer = await createUser(t);
});
afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await twin.close();
  await t.close();
});

/** Opens a socket; resolves once open, rejects with the HTTP status when refused. */
function connect(url: string, headers: Record<string, string> = {}, options: object = {}) {
  return new Promise<Client>((resolve, reject) => {
    const ws = new WebSocket(url, { headers, ...options });
    const client: Client = { ws, messages: [], closed: false };
    ws.on('message', (data) => client.messages.push(JSON.parse(String(data)) as Message));
    ws.on('close', () => (client.closed = true));
    ws.on('open', () => {
      clients.push(client);
      resolve(client);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
    ws.on('error', reject);
  });
}

const ticket = async (eventId: number, who = staff) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/races/events/${eventId}/ticket`,
    headers: bearer(who.token),
  });
  expect(res.statusCode).toBe(201);
  expect(res.json().expires_in).toBe(30);
  return res.json().ticket as string;
};

const rigKeyFor = async (calendarId: number) => {
  const key = `rig_sock_${calendarId}_${Math.random().toString(36).slice(2)}`;
  await t.db.insert(rigKeys).values({ calendarId, keyHash: sha256Hex(key) });
  return key;
};

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });

const eventOf = async (calendarId: number): Promise<number> =>
  (await api('GET', `/api/calendars/${calendarId}`)).json().event;

const since = (c: Client, n: number) => c.messages.slice(n);

type Seen = { entries?: { calendar: number; rig_connected: boolean; state: string }[] };
/** The event as a client knows it: every model_updated merged, in order. */
const view = (c: Client): Seen =>
  Object.assign({}, ...c.messages.filter((m) => m.type === 'model_updated').map((m) => m.data));
/** Waits until each client knows exactly these seats' rigs as connected (presence settled). */
const untilRigs = (cs: Client[], connected: number[]) =>
  until(() =>
    cs.every((c) => {
      const entries = view(c).entries ?? [];
      return (
        entries.length > 0 &&
        entries.every((e) => e.rig_connected === connected.includes(e.calendar))
      );
    }),
  );

describe('launcher socket', () => {
  it('opens with a one-time ticket and sends the whole event first; a ticket works once', async () => {
    const id = await eventOf(venue.seats[0].id);
    const one = await ticket(id);
    const c = await connect(`${base1}/ws/launcher/events/${id}/?ticket=${one}`);
    await until(() => c.messages.length > 0);
    expect(c.messages[0]).toMatchObject({
      type: 'model_updated',
      data: { id, calendar: venue.seats[0].id },
    });
    expect(c.messages[0].data).toHaveProperty('sessions');
    await expect(connect(`${base2}/ws/launcher/events/${id}/?ticket=${one}`)).rejects.toThrow(
      '401',
    );
    // A ticket is for its event only; no ticket, a session token in the URL, a customer: refused.
    const other = await eventOf(venue.seats[1].id);
    await expect(
      connect(`${base1}/ws/launcher/events/${other}/?ticket=${await ticket(id)}`),
    ).rejects.toThrow('401');
    await expect(connect(`${base1}/ws/launcher/events/${id}/`)).rejects.toThrow('401');
    await expect(
      connect(`${base1}/ws/launcher/events/${id}/?token=${staff.token}`),
    ).rejects.toThrow('401');
    await expect(
      connect(`${base1}/ws/launcher/events/${id}/`, bearer(customer.token)),
    ).rejects.toThrow('403');
  });

  it('a rig key opens its own seat’s event only', async () => {
    const [a, b] = venue.seats;
    const key = await rigKeyFor(b.id);
    const header = { authorization: `Rig ${key}` };
    const own = await connect(`${base2}/ws/launcher/events/${await eventOf(b.id)}/`, header);
    own.ws.close();
    await expect(
      connect(`${base2}/ws/launcher/events/${await eventOf(a.id)}/`, header),
    ).rejects.toThrow('403');
  });

  it('two instances: changes, host signals, load states and peer messages reach both, in order', async () => {
    const [host, guest] = venue.seats;
    const party = (
      await api('POST', '/api/races/parties/host', { calendar: host.id, name: 'Socket Night' })
    ).json();
    await api('POST', '/api/races/parties/members', { party: party.id, calendar: guest.id });
    const id = party.host_event as number;
    const guestKey = await rigKeyFor(guest.id);
    const hostKey = await rigKeyFor(host.id);

    const desk = await connect(`${base1}/ws/launcher/events/${id}/?ticket=${await ticket(id)}`);
    const guestRig = await connect(`${base2}/ws/launcher/events/${id}/`, {
      authorization: `Rig ${guestKey}`,
    });
    const hostRig = await connect(`${base2}/ws/launcher/events/${id}/`, {
      authorization: `Rig ${hostKey}`,
    });
    // Each rig shows as connected to everyone, whichever instance holds it (decision 0115).
    await untilRigs([desk, guestRig, hostRig], [guest.id, host.id]);

    // A change on instance A (the API) reaches the rig on B: only the changed fields.
    const n = guestRig.messages.length;
    const n0 = desk.messages.length;
    const h0 = hostRig.messages.length;
    expect((await api('PATCH', `/api/races/events/${id}`, { drift_mode: true })).statusCode).toBe(
      200,
    );
    desk.ws.send(
      JSON.stringify({ type: 'signal', signal: 'SESSION_START', excluded_calendars: [host.id] }),
    );
    await until(() => since(guestRig, n).length >= 2);
    expect(since(guestRig, n)).toEqual([
      { type: 'model_updated', data: { drift_mode: true } },
      { type: 'signal', signal: 'SESSION_START', excluded_calendars: [host.id] },
    ]);
    await until(() => since(desk, n0).length >= 2);
    expect(since(desk, n0).map((m) => m.type)).toEqual(['model_updated', 'signal']);
    // The excluded seat's rig is not started.
    await new Promise((r) => setTimeout(r, 100));
    expect(since(hostRig, h0)).toEqual([{ type: 'model_updated', data: { drift_mode: true } }]);

    // Signals from the desk over HTTP, in the order sent.
    const m = guestRig.messages.length;
    for (const signal of ['RELOAD', 'MP_BRIEF', 'SESSION_EXIT'])
      expect((await api('POST', `/api/races/events/${id}/signal`, { signal })).statusCode).toBe(
        202,
      );
    await until(() => since(guestRig, m).length >= 3);
    expect(since(guestRig, m).map((x) => x.signal)).toEqual(['RELOAD', 'MP_BRIEF', 'SESSION_EXIT']);

    // A rig reports its load state; the desk on the other instance sees it.
    const d = desk.messages.length;
    guestRig.ws.send(JSON.stringify({ type: 'state', state: 'launched' }));
    await until(() => since(desk, d).some((x) => x.type === 'model_updated'));
    const update = since(desk, d).find((x) => x.type === 'model_updated')!;
    const entries = (update.data as { entries: { calendar: number; state: string }[] }).entries;
    expect(entries.find((e) => e.calendar === guest.id)?.state).toBe('running');
    expect(entries.find((e) => e.calendar === host.id)?.state).toBe('none');

    // A peer message of type server is passed on to the others, not back to its sender.
    const p = desk.messages.length;
    const g = guestRig.messages.length;
    hostRig.ws.send(JSON.stringify({ type: 'server', data: { lap: 3 } }));
    await until(() => since(desk, p).some((x) => x.type === 'server'));
    await until(() => since(guestRig, g).some((x) => x.type === 'server'));
    expect(since(desk, p).find((x) => x.type === 'server')).toEqual({
      type: 'server',
      data: { lap: 3 },
      from: host.id,
    });
    expect(since(hostRig, 0).some((x) => x.type === 'server')).toBe(false);

    // A rig cannot send host signals; a desk cannot report a rig state.
    const r = guestRig.messages.length;
    guestRig.ws.send(JSON.stringify({ type: 'signal', signal: 'RELOAD' }));
    desk.ws.send(JSON.stringify({ type: 'state', state: 'launched' }));
    desk.ws.send('not json');
    await until(() => since(guestRig, r).some((x) => x.type === 'error'));
    await until(() => since(desk, p).filter((x) => x.type === 'error').length >= 2);
    expect(
      since(hostRig, 0).filter((x) => x.type === 'signal' && x.signal === 'RELOAD'),
    ).toHaveLength(1);
  });

  it('Start names the seats a rig hears it on and the seats with no rig connected, across instances', async () => {
    const [host, guest, third] = (await createVenue(t, { seats: 3 })).seats;
    const party = (
      await api('POST', '/api/races/parties/host', { calendar: host.id, name: 'No Rig Night' })
    ).json();
    for (const seat of [guest, third])
      await api('POST', '/api/races/parties/members', { party: party.id, calendar: seat.id });
    const id = party.host_event as number;
    const desk = await connect(`${base1}/ws/launcher/events/${id}/?ticket=${await ticket(id)}`);
    await untilRigs([desk], []);

    // Nobody connected: nothing is "sent".
    const none = await api('POST', `/api/races/events/${id}/signal`, { signal: 'SESSION_START' });
    expect(none.statusCode).toBe(202);
    expect(none.json()).toEqual({
      detail: `Start not sent: no rig connected at ${host.name}, ${guest.name}, ${third.name}.`,
      sent_to: [],
      not_connected: [host, guest, third].map((s) => ({ calendar: s.id, calendar_name: s.name })),
    });

    // The guest's rig joins on the other instance: the desk on this one sees it, and so does GET.
    const rig = await connect(`${base2}/ws/launcher/events/${id}/`, {
      authorization: `Rig ${await rigKeyFor(guest.id)}`,
    });
    await untilRigs([desk, rig], [guest.id]);
    const read = (await api('GET', `/api/races/events/${id}`)).json();
    expect(
      read.entries.map((e: { calendar: number; rig_connected: boolean }) => e.rig_connected),
    ).toEqual([false, true, false]);

    const some = await api('POST', `/api/races/events/${id}/signal`, {
      signal: 'SESSION_START',
      excluded_calendars: [host.id],
    });
    expect(some.json()).toEqual({
      detail: `Start sent to ${guest.name}. Not sent to ${third.name}: no rig connected.`,
      sent_to: [{ calendar: guest.id, calendar_name: guest.name }],
      not_connected: [{ calendar: third.id, calendar_name: third.name }],
    });
    const all = await api('POST', `/api/races/events/${id}/signal`, {
      signal: 'RELOAD',
      excluded_calendars: [host.id],
    });
    expect(all.json().detail).toBe(
      `Reload sent to ${guest.name}. Not sent to ${host.name}, ${third.name}: no rig connected.`,
    );

    // The rig goes away: the desk sees its seat as not connected at once.
    rig.ws.close();
    await untilRigs([desk], []);

    // A rig socket of an instance that stopped without closing it (its row no longer pushed on)
    // expires: the next ping round removes it and the desk is told.
    await t.db.insert(rigConnections).values({
      id: 'stopped-instance-socket',
      calendarId: third.id,
      eventId: id,
      expiresAt: new Date(Date.now() + 1500),
    });
    await api('PATCH', `/api/races/events/${id}`, { penalties: false });
    await untilRigs([desk], [third.id]);
    await untilRigs([desk], []);
    expect(
      (await t.db.select().from(rigConnections)).some((r) => r.id === 'stopped-instance-socket'),
    ).toBe(false);
    await api('DELETE', `/api/races/parties/${party.id}`);
    desk.ws.close();
  });

  it('a rig follows its seat into a party (moved_to) and is sent back when the seat leaves (4001)', async () => {
    const [host, guest] = (await createVenue(t, { seats: 2 })).seats;
    const key = await rigKeyFor(guest.id);
    const header = { authorization: `Rig ${key}` };
    const ownEvent = await eventOf(guest.id);
    const onOwn = await connect(`${base2}/ws/launcher/events/${ownEvent}/`, header);
    await until(() => onOwn.messages.length >= 1);
    expect(onOwn.messages[0].data).toMatchObject({ moved_to: null });
    await untilRigs([onOwn], [guest.id]);
    const o = onOwn.messages.length;
    const party = (await api('POST', '/api/races/parties/host', { calendar: host.id })).json();
    const member = (
      await api('POST', '/api/races/parties/members', { party: party.id, calendar: guest.id })
    ).json();
    await until(() => onOwn.messages.length === o + 1);
    expect(onOwn.messages[o]).toEqual({
      type: 'model_updated',
      data: { moved_to: party.host_event },
    });
    const onParty = await connect(`${base1}/ws/launcher/events/${party.host_event}/`, header);
    const closed = new Promise<number>((resolve) =>
      onParty.ws.on('close', (code) => resolve(code)),
    );
    await until(() => onParty.messages.length >= 1);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/races/parties/members/${member.id}`,
      headers: bearer(staff.token),
    });
    expect(await closed).toBe(4001);
    await until(() => onOwn.messages.length === o + 2);
    expect(onOwn.messages[o + 1]).toEqual({ type: 'model_updated', data: { moved_to: null } });
    await api('DELETE', `/api/races/parties/${party.id}`);
    onOwn.ws.close();
  });

  it('200 sockets on one event across two instances each receive one change', async () => {
    const id = await eventOf(venue.seats[2].id);
    const many = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        connect(`${i % 2 ? base2 : base1}/ws/launcher/events/${id}/`, bearer(staff.token)),
      ),
    );
    await until(() => many.every((c) => c.messages.length === 1), 10_000);
    expect((await api('PATCH', `/api/races/events/${id}`, { fixed_setup: true })).statusCode).toBe(
      200,
    );
    await until(() => many.every((c) => c.messages.length >= 2), 10_000);
    await new Promise((r) => setTimeout(r, 200));
    for (const c of many)
      expect(c.messages.slice(1)).toEqual([{ type: 'model_updated', data: { fixed_setup: true } }]);
    for (const c of many) c.ws.close();
  });

  it('drops a slow consumer instead of queueing for it; the others still get the change', async () => {
    const id = await eventOf(venue.seats[0].id);
    const fast = await connect(`${base1}/ws/launcher/events/${id}/`, bearer(staff.token));
    await until(() => fast.messages.length === 1);
    // A socket whose unsent data is past the limit (ws's own bufferedAmount), joined directly.
    class StalledSocket extends EventEmitter {
      OPEN = 1;
      readyState = 1;
      bufferedAmount = 2 << 20;
      sent = 0;
      terminated = false;
      send() {
        this.sent += 1;
      }
      terminate() {
        this.terminated = true;
        this.readyState = 3;
        this.emit('close');
      }
      close() {}
      ping() {}
    }
    const stalled = new StalledSocket();
    t.app.launcherHub.join(id, stalled as unknown as WebSocket, { calendar: null, staff: null });
    await api('PATCH', `/api/races/events/${id}`, { penalties: false });
    await until(() => fast.messages.length === 2);
    expect(stalled.terminated).toBe(true);
    expect(stalled.sent).toBe(0);
    await api('PATCH', `/api/races/events/${id}`, { penalties: true });
    fast.ws.close();
  });

  it('closes a socket that stops answering pings, keeps one that answers', async () => {
    const id = await eventOf(venue.seats[0].id);
    const url = `${base1}/ws/launcher/events/${id}/`;
    const dead = await connect(url, bearer(staff.token), { autoPong: false });
    const live = await connect(url, bearer(staff.token));
    await until(() => dead.closed, 5000);
    expect(live.closed).toBe(false);
    live.ws.close();
  });
});

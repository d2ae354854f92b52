// The project's recordings (test/fixtures/live-feeds, made by live-timing.test.ts with KEEP_FEED
// set) through the sims' translations and the timing model: at every lap the tower's order is
// the one the server itself reported in the same feed.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeServerMessage } from '@paddock/ac-protocol/codec';
import { decodeAccInbound } from '@paddock/ac-protocol/acc/broadcasting';
import { readFeed } from '@paddock/ac-protocol/feed-recording';
import { acTimingEvents, accTimingEvents, newAccTimingMemory } from './sim-events';
import { applyTimingEvent, newTimingState, towerOf } from './timing-model';

const FEEDS = path.join(import.meta.dirname, '../../test/fixtures/live-feeds');
const meta = { event: 1, sim: 'ac' as const, at: new Date(0) };

describe('a recorded AC race', () => {
  it('has the order of acServer’s own leaderboard after every lap until the flag', () => {
    const feed = readFeed(path.join(FEEDS, 'ac-race-monza.feed.jsonl'));
    const s = newTimingState();
    // The entry list's three cars, as the hub opens the tower.
    for (const car of [0, 1, 2])
      applyTimingEvent(s, { kind: 'driver', car, driver: `Car ${car}`, team: '', model: '' });
    let checked = 0;
    for (const { datagram } of feed.datagrams) {
      const decoded = decodeServerMessage(datagram);
      if (!decoded.ok) throw new Error(decoded.error.detail);
      const m = decoded.message;
      for (const e of acTimingEvents(m)) applyTimingEvent(s, e);
      if (m.type !== 'LAP_COMPLETED' || s.chequered) continue;
      const tower = towerOf(s, meta);
      expect(tower.rows.map((r) => [r.number - 1, r.laps])).toEqual(
        m.leaderboard.map((e) => [e.carId, e.laps]),
      );
      checked += 1;
    }
    expect(s.chequered).toBe(true);
    expect(checked).toBeGreaterThan(15);
    const final = towerOf(s, meta);
    expect(final.final).toBe(true);
    expect(final.rows.map((r) => [r.number, r.laps, r.status])).toEqual([
      [3, 8, 'finished'],
      [1, 7, 'finished'],
      [2, 7, 'finished'],
    ]);
  });
});

describe('a recorded ACC race', () => {
  it('has each car where the game’s car update puts it after every lap, and ends at the session’s end', () => {
    const feed = readFeed(path.join(FEEDS, 'acc-race-monza.feed.jsonl'));
    const s = newTimingState();
    const mem = newAccTimingMemory();
    const seats = new Map<number, number>();
    let checked = 0;
    let final = null;
    for (const { datagram } of feed.datagrams) {
      const decoded = decodeAccInbound(datagram);
      if (!decoded.ok) throw new Error(decoded.error.detail);
      const m = decoded.message;
      if (m.type === 'ENTRY_LIST_CAR') seats.set(m.carIndex, m.raceNumber - 1);
      for (const e of accTimingEvents(m, mem, (car) => seats.get(car))) {
        if (e.kind === 'session' && s.sessionSeq > 0) final = towerOf(s, meta);
        applyTimingEvent(s, e);
      }
      if (m.type !== 'REALTIME_CAR_UPDATE' || m.laps === 0 || final) continue;
      const row = towerOf(s, meta).rows.find((r) => r.number - 1 === seats.get(m.carIndex));
      expect(row?.position).toBe(m.position);
      checked += 1;
    }
    expect(checked).toBe(6);
    expect(final?.final).toBe(true);
    expect(final?.rows.map((r) => [r.number, r.laps, r.gap])).toEqual([
      [1, 2, null],
      [2, 2, { ms: 1500, laps: 0 }],
      [3, 2, { ms: 9000, laps: 0 }],
    ]);
  });
});

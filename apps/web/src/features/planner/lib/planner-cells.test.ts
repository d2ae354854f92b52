import { describe, expect, it } from 'vitest';
import {
  expandPlannerDay,
  type PlannerDay,
  type PlannerDayWire,
  type PlannerEntry,
} from '@paddock/contract/planner';
import {
  allowedActions,
  filterSeats,
  isHiddenFreeSlot,
  nowAndNext,
  oneSeatRange,
  rangeOfCells,
  parseLocationParam,
  placeName,
  placeZone,
  type Cell,
} from './planner-cells';

const entry = (over: Partial<PlannerEntry>): PlannerEntry => ({
  id: 1,
  calendar: 1,
  slot: '2026-11-23T18:00',
  user: 5,
  user_display_name: 'Dana',
  paid: true,
  is_blackout: false,
  notes: '',
  created_by_name: null,
  attendance: null,
  ...over,
});
const cell = (e: PlannerEntry | null): Cell => ({ calendar: 1, slot: 'x', time: 'x', entry: e });

describe('With Selected', () => {
  it('allows blackout and booking only when every selected time is free', () => {
    expect(allowedActions([cell(null), cell(null)])).toMatchObject({
      blackout: true,
      book: true,
      delete: false,
    });
    expect(allowedActions([cell(null), cell(entry({}))])).toMatchObject({
      blackout: false,
      delete: false,
    });
  });
  it('allows delete only when every selected time is taken; move for exactly one driver', () => {
    const blackout = entry({ is_blackout: true, user: null });
    expect(allowedActions([cell(entry({})), cell(blackout)])).toMatchObject({
      delete: true,
      attendance: false,
      move: false,
    });
    expect(allowedActions([cell(entry({}))])).toMatchObject({
      delete: true,
      attendance: true,
      move: true,
    });
    expect(allowedActions([])).toMatchObject({ blackout: false, delete: false, move: false });
  });
});

describe('the grid', () => {
  it('hides free slots at :15 and :45 only', () => {
    expect(isHiddenFreeSlot('2026-11-23T18:15', null)).toBe(true);
    expect(isHiddenFreeSlot('2026-11-23T18:45', entry({}))).toBe(false);
    expect(isHiddenFreeSlot('2026-11-23T18:30', null)).toBe(false);
  });
  it('finds who is seated now and who is next', () => {
    const day = {
      now_slot: '2026-11-23T18:00',
      seats: [],
      entries: [
        entry({ id: 1, slot: '2026-11-23T18:00', user: 5, user_display_name: 'Dana' }),
        entry({ id: 2, slot: '2026-11-23T18:30', user: 5, user_display_name: 'Dana' }),
        entry({ id: 3, slot: '2026-11-23T19:30', user: 6, user_display_name: 'Eli' }),
        entry({ id: 4, slot: '2026-11-23T20:00', user: null, is_blackout: true }),
      ],
    } as unknown as PlannerDay;
    const { now, next } = nowAndNext(day, 1);
    expect(now?.user_display_name).toBe('Dana');
    expect(next?.user_display_name).toBe('Eli');
  });
  it('filters seats by name or type', () => {
    const day = {
      seats: [
        { id: 1, name: 'Sim 1', type_name: 'Pro Cockpit' },
        { id: 2, name: 'VR 1', type_name: 'VR Rig' },
      ],
    } as unknown as PlannerDay;
    expect(filterSeats(day, 'vr').map((s) => s.id)).toEqual([2]);
    expect(filterSeats(day, ' ').map((s) => s.id)).toEqual([1, 2]);
  });
});

describe('the day on the wire', () => {
  it('gives each row its names back and knows what it shows', () => {
    const wire = {
      date: '2026-11-23',
      location: null,
      locations: [
        { id: 1, name: 'Downtown', timezone: 'Europe/London', same_zone: true },
        { id: 2, name: 'Airport', timezone: 'Europe/London', same_zone: true },
      ],
      now_slot: '2026-11-23T18:00',
      slots: [{ slot: '2026-11-23T18:00', time: '2026-11-23T18:00:00Z' }],
      seats: [{ id: 7, name: 'Sim 1', type_name: 'Pro', location: 2 }],
      people: { '5': 'Dana', '9': 'Desk Sam' },
      entries: [[3, 7, '2026-11-23T18:00', 5, true, false, '', 9, 'no_show']],
    } satisfies PlannerDayWire;
    const day = expandPlannerDay(wire);
    expect(day.entries).toEqual([
      entry({
        id: 3,
        calendar: 7,
        created_by_name: 'Desk Sam',
        attendance: 'no_show',
      }),
    ]);
    expect(placeName(day)).toBe('All locations');
    expect(placeZone(day)).toBe('Europe/London');
    expect(parseLocationParam('all')).toBe('all');
    expect(parseLocationParam('2')).toBe(2);
    expect(parseLocationParam(null)).toBeNull();
  });
});

describe('a seat out of service', () => {
  const slots = ['18:00', '18:15', '18:30', '19:00', '19:30'].map((h) => ({
    slot: `2026-11-23T${h}`,
    time: `2026-11-23T${h}:00-08:00`,
  }));
  const at = (calendar: number, h: string): Cell => ({
    calendar,
    slot: `2026-11-23T${h}`,
    time: '',
    entry: null,
  });
  it('shift-click takes every shown time between the two cells of one seat', () => {
    const entries = new Map([['1|2026-11-23T19:00', entry({ slot: '2026-11-23T19:00' })]]);
    const range = rangeOfCells(slots, entries, at(1, '19:30'), at(1, '18:00'));
    expect(range.map((c) => c.slot.slice(11))).toEqual(['18:00', '18:30', '19:00', '19:30']);
    expect(range[2].entry?.user_display_name).toBe('Dana');
    expect(rangeOfCells(slots, entries, at(2, '19:30'), at(1, '18:00'))).toHaveLength(1);
  });
  it('reads the selection as one seat range, or none', () => {
    expect(oneSeatRange([at(1, '19:00'), at(1, '18:00')])).toEqual({
      calendar: 1,
      from: '2026-11-23T18:00',
      to: '2026-11-23T19:00',
    });
    expect(oneSeatRange([at(1, '19:00'), at(2, '18:00')])).toBeNull();
    expect(oneSeatRange([])).toBeNull();
  });
  it('says a seat blacked out now is blocked, not free', () => {
    const day = {
      now_slot: '2026-11-23T18:00',
      entries: [entry({ is_blackout: true, user: null })],
    } as unknown as PlannerDay;
    expect(nowAndNext(day, 1)).toMatchObject({ now: null, blocked: true });
    expect(nowAndNext(day, 2)).toMatchObject({ blocked: false });
  });
});

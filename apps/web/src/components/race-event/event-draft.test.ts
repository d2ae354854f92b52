import { describe, expect, it } from 'vitest';
import type { RaceEvent } from '@paddock/contract/races';
import { ApiError } from '../../lib/api-client';
import { estimateText } from './sessions-editor';
import {
  addableTypes,
  changeSessionType,
  draftFromEvent,
  draftToUpdate,
  fieldErrors,
  moveSession,
  newSession,
  withoutCar,
} from './event-draft';

const defaults = () => [newSession('PRACTICE'), newSession('QUALIFYING'), newSession('RACE')];

describe('session defaults (spec §4)', () => {
  it('practice 25 min from the pit, qualifying 10 from the pit, race 10 from the grid', () => {
    expect(
      defaults().map(({ type, duration, spawn, duration_is_laps, name }) => ({
        type,
        duration,
        spawn,
        duration_is_laps,
        name,
      })),
    ).toEqual([
      { type: 'PRACTICE', duration: 25, spawn: 'PIT', duration_is_laps: false, name: 'Practice' },
      {
        type: 'QUALIFYING',
        duration: 10,
        spawn: 'PIT',
        duration_is_laps: false,
        name: 'Qualifying',
      },
      { type: 'RACE', duration: 10, spawn: 'START', duration_is_laps: false, name: 'Race' },
    ]);
    expect(newSession('HOTLAP')).toMatchObject({ spawn: 'HOTLAP_START' });
  });

  it('a session changed to another type takes its spawn, and its default length if it had one', () => {
    const practice = newSession('PRACTICE');
    expect(changeSessionType(practice, 'RACE')).toMatchObject({
      type: 'RACE',
      spawn: 'START',
      duration: 10,
      name: 'Race',
    });
    const long = { ...practice, duration: 40, name: 'Warm-up' };
    expect(changeSessionType(long, 'QUALIFYING')).toMatchObject({
      spawn: 'PIT',
      duration: 40,
      name: 'Warm-up',
    });
  });
});

describe('session time estimate (spec §4: duration + 1.2, rounded, per minute-based session)', () => {
  it('is 48 minutes for the defaults', () => {
    expect(estimateText(defaults())).toBe('Estimated time: 48 minutes');
  });

  it('leaves lap-based sessions out and says so', () => {
    const [p, q, r] = defaults();
    const race = { ...r, duration: 5, duration_is_laps: true };
    expect(estimateText([p, q, race])).toBe('Estimated time: 37 minutes plus 1 lap-based session');
    expect(estimateText([race])).toBe('Estimated time: 0 minutes plus 1 lap-based session');
  });

  it('rounds each session on its own (1 → 2, 3 → 4, 10 → 11)', () => {
    const one = { ...newSession('PRACTICE'), duration: 1 };
    const three = { ...newSession('PRACTICE'), duration: 3 };
    expect(estimateText([one, three, newSession('RACE')])).toBe('Estimated time: 17 minutes');
  });

  it('counts an emptied duration as nothing rather than NaN', () => {
    expect(estimateText([{ ...newSession('PRACTICE'), duration: Number.NaN }])).toBe(
      'Estimated time: 0 minutes',
    );
  });
});

describe('which sessions may be added', () => {
  it('at most one race', () => {
    expect(addableTypes(defaults(), true).RACE).toBe(false);
    expect(addableTypes(defaults().slice(0, 2), true).RACE).toBe(true);
  });

  it('HOTLAP only on a single seat, never a party', () => {
    expect(addableTypes(defaults(), true).HOTLAP).toBe(true);
    expect(addableTypes(defaults(), false).HOTLAP).toBe(false);
  });

  it('nothing past ten sessions', () => {
    const ten = Array.from({ length: 10 }, () => newSession('PRACTICE'));
    expect(Object.values(addableTypes(ten, true)).some(Boolean)).toBe(false);
  });

  it('moves sessions within the list only', () => {
    const list = defaults();
    expect(moveSession(list, 2, -1).map((s) => s.type)).toEqual(['PRACTICE', 'RACE', 'QUALIFYING']);
    expect(moveSession(list, 0, -1)).toBe(list);
  });
});

const EVENT: RaceEvent = {
  id: 5,
  calendar: 1,
  party: 2,
  moved_to: null,
  track: 3,
  cars: [7, 8],
  sessions: [
    {
      id: 2,
      event: 5,
      name: 'Race',
      type: 'RACE',
      spawn: 'START',
      ordering: 1,
      duration: 5,
      duration_is_laps: true,
    },
    {
      id: 1,
      event: 5,
      name: 'Practice',
      type: 'PRACTICE',
      spawn: 'PIT',
      ordering: 0,
      duration: 25,
      duration_is_laps: false,
    },
  ],
  entries: [
    {
      id: 1,
      event: 5,
      calendar: 11,
      calendar_name: 'Cockpit 10',
      user: null,
      car: 7,
      skin: 4,
      exited: false,
      initialized: false,
      launched: false,
      state: 'none',
      rig_connected: false,
    },
    {
      id: 2,
      event: 5,
      calendar: 12,
      calendar_name: 'Cockpit 2',
      user: null,
      car: 8,
      skin: null,
      exited: false,
      initialized: true,
      launched: false,
      state: 'loading',
      rig_connected: false,
    },
  ],
  preset: null,
  assists: ['abs'],
  penalties: true,
  fixed_setup: false,
  drift_mode: false,
};

describe('the event as the modal edits it', () => {
  it('orders sessions by ordering and seats by name, and saves them in that order', () => {
    const draft = draftFromEvent(EVENT);
    expect(draft.sessions.map((s) => s.type)).toEqual(['PRACTICE', 'RACE']);
    expect(draft.entries.map((e) => e.calendar_name)).toEqual(['Cockpit 2', 'Cockpit 10']);
    expect(draftToUpdate(draft)).toEqual({
      track: 3,
      cars: [7, 8],
      sessions: [
        { name: 'Practice', type: 'PRACTICE', spawn: 'PIT', duration: 25, duration_is_laps: false },
        { name: 'Race', type: 'RACE', spawn: 'START', duration: 5, duration_is_laps: true },
      ],
      entries: [
        { calendar: 12, car: 8, skin: null, user: null },
        { calendar: 11, car: 7, skin: 4, user: null },
      ],
      assists: ['abs'],
      penalties: true,
      fixed_setup: false,
      drift_mode: false,
    });
  });

  it('removing a car clears it and its skin from the seats that drove it', () => {
    const draft = withoutCar(draftFromEvent(EVENT), 7);
    expect(draft.cars).toEqual([8]);
    expect(draft.entries.find((e) => e.calendar === 11)).toMatchObject({ car: null, skin: null });
    expect(draft.entries.find((e) => e.calendar === 12)).toMatchObject({ car: 8 });
  });

  it('reads a 400 by field path, keeping general messages apart', () => {
    const error = new ApiError(
      400,
      {
        'sessions.1.duration': ['Too big: expected number to be <=240.'],
        track: ['Unknown track.'],
        non_field_errors: ['Something else.'],
      },
      '',
    );
    expect(fieldErrors(error)).toEqual({
      fields: {
        'sessions.1.duration': 'Too big: expected number to be <=240.',
        track: 'Unknown track.',
      },
      general: ['Something else.'],
    });
    expect(fieldErrors(new ApiError(500, { detail: 'x' }, ''))).toBeNull();
  });
});

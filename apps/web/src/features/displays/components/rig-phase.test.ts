import { describe, expect, it } from 'vitest';
import type { RigSession, RigSessionBooking } from '@paddock/contract/rig-session';
import { rigPhase } from './rig-phase';

const at = (hhmm: string) => Date.parse(`2030-12-06T${hhmm}:00-08:00`);
const iso = (hhmm: string) => `2030-12-06T${hhmm}:00-08:00`;
const booking = (from: string, to: string, extra: Partial<RigSessionBooking> = {}) => ({
  reservation: 1,
  customer_name: 'Ada',
  starts: iso(from),
  ends: iso(to),
  paid: true,
  club: false,
  checked_in: false,
  ...extra,
});
const session = (extra: Partial<RigSession> = {}): RigSession => ({
  seat: 1,
  seat_name: 'Sim 1',
  location_name: 'Track House',
  timezone: 'America/Los_Angeles',
  now: iso('18:00'),
  out_of_service: false,
  current: booking('18:00', '19:00'),
  next: null,
  start_mode: 'staff',
  first_warning_minutes: 5,
  last_warning_minutes: 1,
  can_extend: true,
  car: null,
  track: null,
  ...extra,
});

describe('the rig screen phase', () => {
  it('counts the time left and warns at 5 and 1 minutes', () => {
    expect(rigPhase(session(), at('18:10'), null)).toMatchObject({
      kind: 'session',
      minutesLeft: 50,
      warning: 'none',
    });
    expect(rigPhase(session(), at('18:55'), null)).toMatchObject({ warning: 'first' });
    expect(rigPhase(session(), at('18:59'), null)).toMatchObject({
      warning: 'last',
      minutesLeft: 1,
    });
  });

  it('says when someone else has the next slot, waits for Start in customer mode', () => {
    const s = session({
      next: booking('19:00', '19:30', { reservation: 2 }),
      start_mode: 'customer',
    });
    expect(rigPhase(s, at('18:56'), null)).toMatchObject({ nextTaken: true, awaitingStart: true });
  });

  it('says goodbye a minute after the end, then shows the seat free or next booked', () => {
    const s = session();
    const seen = s.current!;
    expect(rigPhase(s, at('19:00'), seen)).toMatchObject({ kind: 'ended' });
    const later = session({ current: null, next: booking('20:00', '20:30') });
    expect(rigPhase(later, at('19:02'), seen)).toMatchObject({ kind: 'idle' });
    expect(rigPhase(session({ out_of_service: true }), at('18:10'), null).kind).toBe(
      'out_of_service',
    );
  });
});

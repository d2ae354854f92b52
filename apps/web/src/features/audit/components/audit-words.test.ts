import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '@paddock/contract/audit';
import { actionLabel, fieldLines, groupActs } from './audit-words';

const row = (over: Partial<AuditEvent>): AuditEvent => ({
  id: 1,
  at: '2026-12-01T02:00:00.123Z',
  actor: 7,
  actor_name: 'Dana Desk',
  action: 'planner.delete',
  target_type: 'reservation',
  target_id: 40,
  subject_user: 9,
  subject_name: 'Cara Customer',
  subject_deleted: false,
  target_name: null,
  names: {},
  before: null,
  after: null,
  ...over,
});

describe('the audit trail in words', () => {
  it('names every action in words, even one without its own label', () => {
    expect(actionLabel('staff.invite')).toBe('Invited to the staff');
    expect(actionLabel('seat.price')).toBe('Changed a seat price');
    expect(actionLabel('rigs.add_key')).toBe('Rigs add key');
  });

  it('shows seats by name, money as money, permissions and hours in words', () => {
    const names = { 'calendar:3': 'Rig 3' };
    expect(fieldLines({ calendar: 3, slot: '2026-12-01T18:00' }, names)).toBe(
      'Seat: Rig 3\nTime: 2026-12-01 18:00',
    );
    expect(fieldLines({ calendar: 9 }, names)).toBe('Seat: seat #9 (deleted)');
    expect(fieldLines({ cost_cents: 3100 }, {})).toBe('Price: $31.00');
    expect(fieldLines({ permission: 'audit.view_event' }, {})).toBe(
      'Permission: See the audit trail',
    );
    expect(
      fieldLines(
        { special_hours: { '2026-12-24': [], '2026-12-31': [{ open: '10:00', close: '14:00' }] } },
        {},
      ),
    ).toBe('Special hours: 2026-12-24: closed; 2026-12-31: 10:00–14:00');
    expect(fieldLines({ firstName: 'Cara', is_superuser: false }, {})).toBe(
      'First name: Cara\nSuperuser: No',
    );
  });

  it('speaks in words: no codes, no "cents" names, the venue’s time, sessions and tracks by name', () => {
    expect(fieldLines({ attendance: 'no_show' }, {})).toBe('Attendance: No-show');
    expect(fieldLines({ attendance: null }, {})).toBe('Attendance: Not marked');
    expect(
      fieldLines({ refund: 'full', paid_cents: 2722, card_cents: 2722, voucher_cents: 0 }, {}),
    ).toBe('Refund: Full refund\nPaid: $27.22\nTo the card: $27.22\nTo the voucher: $0.00');
    expect(fieldLines({ amount_cents: 500, method: 'terminal' }, {})).toBe(
      'Amount: $5.00\nMethod: Card terminal',
    );
    // Any other coded value still reads as words.
    expect(fieldLines({ outcome: 'left_early' }, {})).toBe('Outcome: Left early');
    const venue = (iso: string) => `venue(${iso})`;
    expect(fieldLines({ starts_at: '2026-12-01T02:00:00.000Z' }, {}, venue)).toBe(
      'Starts: venue(2026-12-01T02:00:00.000Z)',
    );
    expect(fieldLines({ starts_at: null }, {})).toBe('Starts: At once');
    const names = { 'track:4': 'Monza', 'car:2': 'Ferrari 488 GT3', 'calendar:3': 'Rig 3' };
    expect(
      fieldLines(
        {
          track: 4,
          cars: [2],
          sessions: [
            { name: 'Practice', type: 'PRACTICE', duration: 25, duration_is_laps: false },
            { name: 'Race', type: 'RACE', duration: 10, duration_is_laps: true },
          ],
          entries: [{ calendar: 3, car: 2 }],
        },
        names,
      ),
    ).toBe(
      'Track: Monza\nCars: Ferrari 488 GT3\nSessions: Practice, 25 min; Race, 10 laps\nSeats and cars: Rig 3: Ferrari 488 GT3',
    );
    expect(
      fieldLines(
        { signal: 'SESSION_START', excluded_calendars: [3], sent_to: [], not_connected: ['Rig 1'] },
        names,
      ),
    ).toBe('Signal: Start\nSeats left out: Rig 3\nReached: none\nNo rig connected: Rig 1');
    expect(fieldLines({ party: 'Friday Night', calendar: 3 }, names)).toBe(
      'Party: Friday Night\nSeat: Rig 3',
    );
  });

  it('shows one row per act: the rows one transaction wrote for one customer', () => {
    const acts = groupActs([
      row({ id: 3, action: 'reservation.cancel', after: { refund: 'full' } }),
      row({ id: 2, action: 'planner.delete', before: { slot: '2026-12-01T18:00' } }),
      row({ id: 1, at: '2026-11-30T10:00:00.000Z', action: 'planner.attendance', target_id: 41 }),
      row({ id: 0, at: '2026-11-30T10:00:00.000Z', action: 'planner.attendance', target_id: 42 }),
    ]);
    expect(acts.map((a) => a.label)).toEqual([
      'Cancelled a reservation',
      'Marked attendance (2 bookings)',
    ]);
    expect(acts[0].events.map((e) => e.id)).toEqual([3]);
  });
});

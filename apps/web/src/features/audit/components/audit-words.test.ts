import { describe, expect, it } from 'vitest';
import { actionLabel, fieldLines } from './audit-words';

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
});

import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldIcsLine, googleCalendarUrl, icsDateTime } from './ics';

const event = {
  uid: 'reservation-12@paddock',
  start: new Date('2026-11-24T22:00:00Z'),
  end: new Date('2026-11-24T22:30:00Z'),
  summary: 'Cockpit 1, Paddock Downtown',
  description: 'Seat: Cockpit 1\nArrive 10 minutes early; bring closed shoes.',
  location: '100 S Grand Ave, Los Angeles, CA 90012',
};

describe('icsDateTime', () => {
  it('writes UTC date-times without separators or milliseconds', () => {
    expect(icsDateTime(new Date('2026-03-08T09:30:15.123Z'))).toBe('20260308T093015Z');
  });
});

describe('escapeIcsText', () => {
  it('escapes backslash, semicolon, comma and every kind of line break', () => {
    expect(escapeIcsText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });
  it('leaves colons and quotes alone', () => {
    expect(escapeIcsText('Time: "2:00 PM"')).toBe('Time: "2:00 PM"');
  });
});

describe('foldIcsLine', () => {
  it('keeps a 75-octet line whole and folds a longer one', () => {
    const exact = `SUMMARY:${'x'.repeat(67)}`;
    expect(foldIcsLine(exact)).toBe(exact);
    const long = `SUMMARY:${'x'.repeat(200)}`;
    const folded = foldIcsLine(long);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(long);
  });
  it('never splits a multi-byte character', () => {
    const long = `SUMMARY:${'é🏁'.repeat(40)}`;
    const lines = foldIcsLine(long).split('\r\n');
    for (const line of lines) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
      expect(line).not.toMatch(/\uFFFD/);
    }
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(long);
  });
});

describe('buildIcs', () => {
  const ics = buildIcs([event], new Date('2026-11-20T08:00:00Z'));

  it('is a VCALENDAR with CRLF line ends and one VEVENT in UTC', () => {
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain('\r\nBEGIN:VEVENT\r\nUID:reservation-12@paddock\r\n');
    expect(unfolded).toContain('\r\nDTSTAMP:20261120T080000Z\r\n');
    expect(unfolded).toContain('\r\nDTSTART:20261124T220000Z\r\nDTEND:20261124T223000Z\r\n');
    expect(unfolded).toContain('\r\nSUMMARY:Cockpit 1\\, Paddock Downtown\r\n');
    expect(unfolded).toContain(
      '\r\nDESCRIPTION:Seat: Cockpit 1\\nArrive 10 minutes early\\; bring closed shoes.\r\n',
    );
    expect(unfolded).toContain('\r\nLOCATION:100 S Grand Ave\\, Los Angeles\\, CA 90012\r\n');
    expect(unfolded.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });

  it('leaves out empty optional properties', () => {
    const bare = buildIcs([{ ...event, description: undefined, location: undefined }]);
    expect(bare).not.toContain('DESCRIPTION');
    expect(bare).not.toContain('LOCATION');
  });
});

describe('googleCalendarUrl', () => {
  it("fills Google's template with the title, UTC dates, details and place", () => {
    const url = new URL(googleCalendarUrl(event));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Cockpit 1, Paddock Downtown');
    expect(url.searchParams.get('dates')).toBe('20261124T220000Z/20261124T223000Z');
    expect(url.searchParams.get('location')).toBe(event.location);
    expect(url.searchParams.get('details')).toBe(event.description);
  });
});

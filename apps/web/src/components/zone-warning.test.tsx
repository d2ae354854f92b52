import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { formatVenueZone } from '../lib/slot-format';
import { ZoneWarning } from './zone-warning';

/** The device's zone as Intl reports it (what `browserZoneDiffers` compares against). */
function deviceIn(timeZone: string) {
  const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
    this: Intl.DateTimeFormat,
  ) {
    return { ...resolved.call(this), timeZone };
  });
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe('ZoneWarning', () => {
  it('warns when the device is in another zone than the venue', () => {
    deviceIn('America/New_York');
    render(<ZoneWarning places={[{ name: 'Paddock Brighton', zone: 'Europe/London' }]} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Times are in Paddock Brighton’s time zone (Europe/London), not this device’s.',
    );
  });

  it('names every venue whose zone differs, once each', () => {
    deviceIn('Asia/Tokyo');
    const brighton = { name: 'Paddock Brighton', zone: 'Europe/London' };
    const downtown = { name: 'Paddock Downtown', zone: 'America/Los_Angeles' };
    render(<ZoneWarning places={[brighton, downtown, brighton]} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Times are in each venue’s time zone (Paddock Brighton: Europe/London; Paddock Downtown: America/Los_Angeles), not this device’s.',
    );
  });

  it('says nothing when the device shares the venue’s zone', () => {
    deviceIn('Europe/London');
    const { container } = render(
      <ZoneWarning places={[{ name: 'Paddock Brighton', zone: 'Europe/London' }]} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe('formatVenueZone', () => {
  it('names the venue and the zone its times are on', () => {
    expect(formatVenueZone('2026-07-01T18:00', 'Paddock Brighton', 'Europe/London')).toBe(
      'Paddock Brighton · GMT+1 (Europe/London)',
    );
    expect(formatVenueZone('2026-12-01T18:00', 'Paddock Downtown', 'America/Los_Angeles')).toBe(
      'Paddock Downtown · PST (America/Los_Angeles)',
    );
  });
});

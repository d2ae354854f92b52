import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Settings } from 'luxon';
import { formatVenueZone } from '../lib/slot-format';
import { ZoneWarning } from './zone-warning';

// Luxon's default zone stands for the browser's (what `browserZoneDiffers` compares against).
const browserZone = Settings.defaultZone;
afterEach(() => {
  Settings.defaultZone = browserZone;
});

describe('ZoneWarning', () => {
  it('warns when the device is in another zone than the venue', () => {
    Settings.defaultZone = 'America/New_York';
    render(<ZoneWarning places={[{ name: 'Paddock Brighton', zone: 'Europe/London' }]} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Times are in Paddock Brighton’s time zone (Europe/London), not this device’s.',
    );
  });

  it('names every venue whose zone differs, once each', () => {
    Settings.defaultZone = 'Asia/Tokyo';
    const brighton = { name: 'Paddock Brighton', zone: 'Europe/London' };
    const downtown = { name: 'Paddock Downtown', zone: 'America/Los_Angeles' };
    render(<ZoneWarning places={[brighton, downtown, brighton]} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Times are in each venue’s time zone (Paddock Brighton: Europe/London; Paddock Downtown: America/Los_Angeles), not this device’s.',
    );
  });

  it('says nothing when the device shares the venue’s zone', () => {
    Settings.defaultZone = 'Europe/London';
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

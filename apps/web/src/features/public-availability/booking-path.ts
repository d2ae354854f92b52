import { pathTo } from '../../lib/routes';

/** A seat and start a visitor chose: where Paddock's booking page opens on it. */
export type Selection = { seat: number; slot: string };

/** The booking page opened on `selection` (it reads `?slot=`, as a waitlist offer's link does). */
export function bookingPath(selection: Selection): string {
  return pathTo('reservationCreate', { calendar: selection.seat }, { slot: selection.slot });
}

/** Where Book takes a visitor: the booking itself, or signing up first and back to it. */
export function bookPath(selection: Selection, signedIn: boolean): string {
  const target = bookingPath(selection);
  return signedIn ? target : pathTo('signup', {}, { redirect: target });
}

/** The next or previous local date `YYYY-MM-DD`. */
export function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textOn(hex: string): '#000000' | '#ffffff' {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // Contrast with white (1.05 / (l + 0.05)) against with black ((l + 0.05) / 0.05).
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

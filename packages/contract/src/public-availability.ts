import { z } from 'zod';
import { isoDate, slotTime } from './calendars';
import { idText } from './common';

/**
 * Anonymous availability (issue 45, decision 0123): what a visitor (or the venue's own website,
 * through the widget) sees of one location's day before signing up. Seats, prices and free start
 * times only: nothing says who booked what.
 */
export const publicAvailabilityQuery = z.object({ location: idText, date: isoDate });
export type PublicAvailabilityQuery = z.infer<typeof publicAvailabilityQuery>;

export const publicSeat = z.object({
  id: z.number().int(),
  name: z.string(),
  type_name: z.string(),
  cost_cents: z.number().int(),
  cost_unit: z.string(),
  /** The seat type's shortest booking in minutes (VR: 120). */
  min_minutes: z.number().int(),
  /** Start slots on the date a visitor could book now (the booking page's own rule). */
  free: z.array(slotTime),
});
export type PublicSeat = z.infer<typeof publicSeat>;

export const publicAvailability = z.object({
  location: z.object({
    id: z.number().int(),
    name: z.string(),
    timezone: z.string(),
    currency: z.string(),
  }),
  date: z.string(),
  seats: z.array(publicSeat),
});
export type PublicAvailability = z.infer<typeof publicAvailability>;

/** The message type the widget's page posts to the loader script with its height. */
export const WIDGET_HEIGHT_MESSAGE = 'paddock-widget-height';

/** An origin a venue lets frame its widget: scheme, host and port, nothing after. */
export const frameOrigin = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i,
    'Enter an origin such as https://www.example.com.',
  );

/** The venue's colour in the widget and on the public page (#rrggbb). */
export const brandColour = z.string().regex(/^#[0-9a-f]{6}$/i, 'Enter a colour as #rrggbb.');

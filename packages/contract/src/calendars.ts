import { z } from 'zod';
import { INT_MAX, idText, intText, paginationQuery, safeUrl } from './common';
import { MAX_MINIMUM_MINUTES } from './booking-words';

/** Slots are 30 minutes and start at :00 and :30. */
export const SLOT_MINUTES = 30;

/**
 * A real calendar date `YYYY-MM-DD` (years 0001–9999, 29 February in leap years only), as a
 * pattern the API document can carry: `0000-00-00` or `2030-02-30` is refused by the pattern
 * itself, not only later by the service.
 */
export const REAL_DATE_PATTERN =
  '(?!0000)(?:(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)-02-29|' +
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|' +
  '02-(?:0[1-9]|1\\d|2[0-8])))';
const REAL_DATE = new RegExp(`^${REAL_DATE_PATTERN}$`);
/** A real calendar date `YYYY-MM-DD` (the one rule: the server's slots use it too). */
export const isRealDate = (date: string) => REAL_DATE.test(date);
/** A slot key's form: `YYYY-MM-DDTHH:mm` at :00 or :30, the date not yet checked. */
const SLOT_FORM_PATTERN = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):(00|30)$/;
/** A slot key on a real date, at :00 or :30. */
export const SLOT_KEY_PATTERN = new RegExp(`^${REAL_DATE_PATTERN}T([01]\\d|2[0-3]):(00|30)$`);
export const SLOT_FORMAT_MESSAGE = 'Enter a slot as YYYY-MM-DDTHH:mm at :00 or :30.';
export const SLOT_DATE_MESSAGE = 'Enter a real date and time.';

/**
 * Seat-local slot key `YYYY-MM-DDTHH:mm` at :00 or :30, on a real date. Two checks so the
 * message says which is wrong (the form, or the date); the document carries the exact pattern.
 */
export const slotKey = z
  .string()
  .regex(SLOT_FORM_PATTERN, {
    message: SLOT_FORMAT_MESSAGE,
    abort: true,
  })
  .refine((key) => SLOT_KEY_PATTERN.test(key), SLOT_DATE_MESSAGE)
  .meta({ pattern: SLOT_KEY_PATTERN.source });

export const isoDate = z.iso.date({ message: 'Enter a date as YYYY-MM-DD.' });

/** Comma-separated positive ids in a query string ("1,2"). */
export const idList = z
  .string()
  .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,99}$/, 'Enter ids separated by commas.')
  .transform((v) => v.split(',').map(Number))
  .refine((ids) => ids.every((id) => id <= INT_MAX), 'Enter ids separated by commas.');

export {
  durationWords,
  MAX_MINIMUM_MINUTES,
  minimumStayLeftMessage,
  minimumStayMessage,
} from './booking-words';

export const calendarType = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string(),
  description: z.string(),
  is_vr: z.boolean(),
  /** The shortest booking of a seat of this type, in minutes (whole half-hours). */
  min_minutes: z.number().int(),
});
export type CalendarType = z.infer<typeof calendarType>;

/** A simulator seat. `event` is the race event it hosts (parties feature; null until then). */
export const calendar = z.object({
  id: z.number().int(),
  name: z.string(),
  cost_cents: z.number().int(),
  cost_unit: z.string(),
  type: z.number().int(),
  type_name: z.string(),
  type_image: z.string(),
  type_description: z.string(),
  /** Its type's shortest booking, in minutes. */
  type_min_minutes: z.number().int(),
  image: z.string(),
  event: z.number().int().nullable(),
  location: z.number().int(),
  /** Its location's ISO 4217 code: what `cost_cents` is in. */
  currency: z.string(),
});
export type Calendar = z.infer<typeof calendar>;

/**
 * GET /calendars. `has_slot_avail=DATE` keeps seats with at least one bookable run of
 * `block_count` free consecutive slots (default 1) starting that date; `type__in=1,2`.
 */
export const calendarsQuery = paginationQuery.extend({
  has_slot_avail: isoDate.optional(),
  block_count: intText(1, 48).optional(),
  search: z.string().trim().max(200).optional(),
  location: idText.optional(),
  type__in: idList.optional(),
});
export type CalendarsQuery = z.input<typeof calendarsQuery>;

export const availQuery = z.object({ date: isoDate });

/**
 * The state of one seat-slot for the caller:
 * free (bookable), taken (someone else), blackout, mine_paid ('You, Confirmed'),
 * mine_unpaid ('You, Pending'), past (started, or outside the caller's booking window).
 * A slot both past and reserved reports the reservation state (mine_paid, taken...).
 */
export const slotState = z.enum(['free', 'taken', 'blackout', 'mine_paid', 'mine_unpaid', 'past']);
export type SlotState = z.infer<typeof slotState>;

export const availSlot = z.object({
  slot: z.string(),
  time: z.string(),
  /** Minutes (always 30). */
  block: z.number().int(),
  state: slotState,
  /** True only for `free`. */
  available: z.boolean(),
  reserved_by_me: z.boolean(),
  /** Paid flag of the caller's own reservation; null otherwise. */
  paid: z.boolean().nullable(),
  is_blackout: z.boolean(),
  past: z.boolean(),
});
export type AvailSlot = z.infer<typeof availSlot>;

/** GET /calendars/{id}/avail?date= → slot key → state, keys in time order. Closed day: {}. */
export const availResponse = z.record(z.string(), availSlot);
export type AvailResponse = z.infer<typeof availResponse>;

/**
 * GET /calendars/parallel: `racers` seats side by side for `sessions` sessions of `block`
 * minutes (a multiple of 30, default 30), all starting at the same slot on `date`.
 */
export const parallelQuery = z.object({
  date: isoDate,
  location: idText,
  block: z.coerce
    .number()
    .int()
    .min(SLOT_MINUTES)
    .max(24 * 60)
    .refine((v) => v % SLOT_MINUTES === 0, 'Enter minutes in steps of 30.')
    .default(SLOT_MINUTES),
  sessions: intText(1, 48).default(1),
  racers: intText(1, 100).default(1),
  type__in: idList.optional(),
});
export type ParallelQuery = z.input<typeof parallelQuery>;

export const slotTime = z.object({ slot: z.string(), time: z.string() });
export type SlotTime = z.infer<typeof slotTime>;

/** Seats that can take part, each with the start slots where the whole group fits. */
export const parallelResponse = z.array(calendar.extend({ slots: z.array(slotTime) }));
export type ParallelResponse = z.infer<typeof parallelResponse>;

/** GET /avail/quote?date&location: free seats per slot across the location. */
export const availQuoteQuery = z.object({
  date: isoDate,
  location: idText,
  type__in: idList.optional(),
});

export const availQuoteSlot = z.object({
  slot: z.string(),
  time: z.string(),
  block: z.number().int(),
  /** Seats free and bookable by the caller at this slot. */
  available: z.number().int(),
  /** Active seats considered. */
  seats: z.number().int(),
});
export const availQuoteResponse = z.array(availQuoteSlot);
export type AvailQuoteResponse = z.infer<typeof availQuoteResponse>;

/** Staff's view of a seat type's editable fields (POST /caltypes, PATCH /caltypes/{id}). */
export const calendarTypeFields = z
  .object({
    name: z.string().trim().min(1).max(120),
    image: safeUrl(),
    description: z.string().trim().max(2000),
    is_vr: z.boolean(),
    min_minutes: z
      .number()
      .int()
      .min(SLOT_MINUTES)
      .max(MAX_MINIMUM_MINUTES)
      .multipleOf(SLOT_MINUTES, 'Enter whole half-hours (30, 60, 90…).'),
  })
  .strict();
export const calendarTypeCreate = calendarTypeFields.partial().required({ name: true }).strict();
export type CalendarTypeCreate = z.infer<typeof calendarTypeCreate>;
export const calendarTypeUpdate = calendarTypeFields.partial().strict();
export type CalendarTypeUpdate = z.infer<typeof calendarTypeUpdate>;

/** A seat as staff manage it: inactive seats included, with its order. */
/**
 * A SteamID64: 17 digits, the individual-account range starting 7656119 (what Steam shows as
 * the account's id, and ACC's entry list takes as `playerID` S<id>).
 */
export const STEAM_ID64_PATTERN = /^7656119\d{10}$/;
export const STEAM_ID64_MESSAGE =
  'Enter the 17-digit SteamID64 of the seat’s Steam account (it starts with 7656119), or leave it empty.';

/** A seat's Steam account, or null (none): '' clears it too. */
export const seatSteamId = z
  .string()
  .trim()
  .regex(/^(7656119\d{10})?$/, STEAM_ID64_MESSAGE)
  .nullable();

export const seatAdmin = calendar.extend({
  active: z.boolean(),
  sort_order: z.number().int(),
  /** The SteamID64 the seat's PC plays on: ACC's forced entry list ties the seat's race number
   *  to it (decision 0118). Null when not set. */
  steam_id: z.string().nullable(),
});
export type SeatAdmin = z.infer<typeof seatAdmin>;

/** A seat's editable fields. `location` may change only while the seat has no future bookings. */
export const seatFields = z
  .object({
    name: z.string().trim().min(1).max(120),
    type: z.number().int().min(1).max(INT_MAX),
    location: z.number().int().min(1).max(INT_MAX),
    /** Price per 30-minute slot. */
    cost_cents: z.number().int().min(0).max(10_000_000),
    image: safeUrl(),
    active: z.boolean(),
    sort_order: z.number().int().min(-1_000_000).max(1_000_000),
    steam_id: seatSteamId,
  })
  .strict();
export const seatCreate = seatFields
  .partial()
  .required({ name: true, type: true, location: true, cost_cents: true })
  .strict();
export type SeatCreate = z.infer<typeof seatCreate>;
export const seatUpdate = seatFields.partial().strict();
export type SeatUpdate = z.infer<typeof seatUpdate>;

/** GET /locations/{id}/seats: every seat of the location, active or not, in display order. */
export const seatAdminList = z.array(seatAdmin);

/**
 * The page that books one seat at one time (a waitlist offer's "Book it now", on the dashboard
 * and in its e-mail): it opens on that date with that time chosen.
 */
export const bookSeatAtPath = (calendar: number, slot: string) =>
  `/reservations/${calendar}?slot=${encodeURIComponent(slot)}`;

import { z } from 'zod';
import { idNumber, idText } from './common';
import { isoDate, slotKey } from './calendars';
import { refundChoice } from './refunds';

/** Spec staff §9: the planner reloads every 10 minutes (and at once on a change in the feed). */
export const PLANNER_REFRESH_MS = 600_000;
/** Spec staff §9: one 520 px column per seat. */
export const PLANNER_COLUMN_PX = 520;
/** Spec staff §8, word for word. */
export const BLACKED_OUT_MESSAGE = 'The selected dates have been blacked out';
export const DELETED_MESSAGE = 'Successfully deleted';
/** The most slots one With Selected action may touch. */
export const PLANNER_SELECTION_MAX = 500;

/** `location=all`: every location's seats side by side (locations that share one time zone). */
export const ALL_LOCATIONS = 'all';

export const plannerQuery = z.object({
  date: isoDate,
  /** A location's id, or `all`; without it, the venue's first location. */
  location: z.union([z.literal(ALL_LOCATIONS), idText]).optional(),
});
export type PlannerQuery = z.input<typeof plannerQuery>;

export const ATTENDANCE = ['checked_in', 'no_show'] as const;
export const attendance = z.enum(ATTENDANCE);
export type Attendance = z.infer<typeof attendance>;

/** One taken slot of the day: a driver's reservation or a blackout. */
export const plannerEntry = z.object({
  id: z.number().int(),
  calendar: z.number().int(),
  slot: z.string(),
  user: z.number().int().nullable(),
  user_display_name: z.string().nullable(),
  paid: z.boolean(),
  is_blackout: z.boolean(),
  notes: z.string(),
  created_by_name: z.string().nullable(),
  attendance: attendance.nullable(),
});
export type PlannerEntry = z.infer<typeof plannerEntry>;

const plannerLocation = z.object({
  id: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  /** All locations can be shown together (they share the first one's time zone). */
  same_zone: z.boolean(),
});

/**
 * One taken slot on the wire: `[id, calendar, slot, user, paid, is_blackout, notes, created_by,
 * attendance]`. A busy day is ten thousand of them, so names travel once, in `people`.
 */
export const plannerRow = z.tuple([
  z.number().int(),
  z.number().int(),
  z.string(),
  z.number().int().nullable(),
  z.boolean(),
  z.boolean(),
  z.string(),
  z.number().int().nullable(),
  attendance.nullable(),
]);
export type PlannerRow = z.infer<typeof plannerRow>;

/**
 * `GET /planner`: a location's (or every location's) whole day in one answer. Use
 * `expandPlannerDay` to turn it into `PlannerDay`.
 */
export const plannerDayWire = z.object({
  date: z.string(),
  /** The location shown; null when all are. */
  location: plannerLocation.nullable(),
  locations: z.array(plannerLocation),
  /** The venue's local slot now (`YYYY-MM-DDTHH:mm`), to show who is seated and who is next. */
  now_slot: z.string(),
  /** The slots the shown location(s) are open on this date, in order. */
  slots: z.array(z.object({ slot: z.string(), time: z.string() })),
  seats: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      type_name: z.string(),
      location: z.number().int(),
    }),
  ),
  /** Display names by user id, for `user` and `created_by` of the rows. */
  people: z.record(z.string(), z.string().nullable()),
  entries: z.array(plannerRow),
});
export type PlannerDayWire = z.infer<typeof plannerDayWire>;

export type PlannerDay = Omit<PlannerDayWire, 'people' | 'entries'> & { entries: PlannerEntry[] };

/** The wire's rows as entries with names (what the planner screen works with). */
export function expandPlannerDay(wire: PlannerDayWire): PlannerDay {
  const name = (id: number | null) => (id === null ? null : (wire.people[id] ?? null));
  const { people: _people, entries, ...rest } = wire;
  return {
    ...rest,
    entries: entries.map(([id, calendar, slot, user, paid, isBlackout, notes, by, att]) => ({
      id,
      calendar,
      slot,
      user,
      user_display_name: name(user),
      paid,
      is_blackout: isBlackout,
      notes,
      created_by_name: name(by),
      attendance: att,
    })),
  };
}

const seatSlot = z.object({ calendar: idNumber, slot: slotKey }).strict();
const seatSlots = z.array(seatSlot).min(1, 'Select at least one time.').max(PLANNER_SELECTION_MAX);
const entryIds = z
  .array(idNumber)
  .min(1, 'Select at least one reservation.')
  .max(PLANNER_SELECTION_MAX);

/** With Selected → Blackout Selected Times (all free, or nothing changes). */
export const plannerBlackout = z
  .object({ slots: seatSlots, notes: z.string().trim().max(1000).default('') })
  .strict();
export type PlannerBlackout = z.input<typeof plannerBlackout>;

/**
 * With Selected → Delete Reservations (all of them, or none). `refund`: what the customers get
 * back (per policy, full, or none with a `reason`); without it nothing is refunded, as before.
 */
export const plannerDelete = z
  .object({
    reservations: entryIds,
    refund: refundChoice.optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();
export type PlannerDelete = z.infer<typeof plannerDelete>;

/**
 * `POST /planner/delete/quote`: what Delete Reservations would give back, booking by booking,
 * exactly as the delete will do it (each the single cancel's quote), before staff confirm.
 */
export const plannerDeleteQuote = z
  .object({ reservations: entryIds, refund: refundChoice.default('policy') })
  .strict();
export type PlannerDeleteQuote = z.input<typeof plannerDeleteQuote>;

export const plannerRefundQuote = z.object({
  bookings: z.array(
    z.object({
      reservation: z.number().int(),
      customer: z.string().nullable(),
      calendar_name: z.string(),
      slot: z.string(),
      currency: z.string(),
      /** What goes back, in all (card or desk method, credits' value, voucher). */
      total_cents: z.number().int(),
      kept_cents: z.number().int(),
      /** One line per way it goes back: "$27.22 given back at the desk (card terminal)". */
      lines: z.array(z.string()),
    }),
  ),
  /** The whole of it in one sentence, as the toast after the delete says it. */
  summary: z.string(),
});
export type PlannerRefundQuote = z.infer<typeof plannerRefundQuote>;

/**
 * Book selected free slots for a customer: `card` charges their saved card now (declined:
 * nothing is booked), `desk` leaves them unpaid to pay at the desk.
 */
export const plannerBook = z
  .object({ user: idNumber, slots: seatSlots, payment: z.enum(['card', 'desk']) })
  .strict();
export type PlannerBook = z.infer<typeof plannerBook>;

/** Move one reservation to another seat and/or time (a rig broke). */
/** `run`: the driver's whole run on the seat moves together (as `POST …/move`'s `run`). */
export const plannerMove = z
  .object({ reservation: idNumber, calendar: idNumber, slot: slotKey, run: z.boolean().optional() })
  .strict();
export type PlannerMove = z.infer<typeof plannerMove>;

/** Checked in, no-show, or back to neither (null). */
export const plannerAttendance = z
  .object({ reservations: entryIds, attendance: attendance.nullable() })
  .strict();
export type PlannerAttendance = z.infer<typeof plannerAttendance>;

/**
 * What a desk booking left to pay at the desk owes, booking by booking (oldest first), so the
 * desk can take the payment at once for exactly these (decision 0116).
 */
export const paymentDue = z.object({
  user: z.number().int(),
  currency: z.string(),
  total_cents: z.number().int(),
  bookings: z.array(z.object({ id: z.number().int(), amount_cents: z.number().int() })),
});
export type PaymentDue = z.infer<typeof paymentDue>;

export const plannerResult = z.object({
  detail: z.string(),
  entries: z.array(plannerEntry),
  /** Book for a Customer, to pay at the desk: what it owes. */
  payment_due: paymentDue.optional(),
});
export type PlannerResult = z.infer<typeof plannerResult>;

/** What a seat's header says while a blackout covers the current slot (issue 30). */
export const OUT_OF_SERVICE = 'Out of service';

/**
 * A seat out of service from `from` to `to` (both slot keys of one day, `to` included): the
 * range `GET /planner/out_of_service` previews and `POST` carries out in one transaction.
 */
const outOfServiceRange = {
  calendar: idNumber,
  from: slotKey,
  to: slotKey,
};
export const outOfServiceQuery = z
  .object({ calendar: idText, from: slotKey, to: slotKey })
  .strict();
export type OutOfServiceQuery = z.input<typeof outOfServiceQuery>;

/**
 * `refund`: what a booking that cannot move gets back when it is cancelled (the venue's fault:
 * in full by default). `notes` go on the blackouts.
 */
export const outOfService = z
  .object({
    ...outOfServiceRange,
    notes: z.string().trim().max(1000).default(''),
    refund: z.enum(['full', 'policy']).default('full'),
  })
  .strict();
export type OutOfService = z.input<typeof outOfService>;

/** One booking the range affects, and where it goes: a comparable seat, or null (cancelled). */
export const outOfServiceBooking = z.object({
  reservation: z.number().int(),
  slot: z.string(),
  user: z.number().int().nullable(),
  user_display_name: z.string().nullable(),
  paid: z.boolean(),
  to_calendar: z.number().int().nullable(),
  to_calendar_name: z.string().nullable(),
});
export type OutOfServiceBooking = z.infer<typeof outOfServiceBooking>;

/**
 * A party the seat is in at the range's time (running today, or starting within the range): its
 * place moves to `to_calendar` (where the seat's bookings went) when it can, else stays flagged
 * out of service on the Parties and launcher screens (decision 0117).
 */
export const outOfServiceParty = z.object({
  party: z.number().int(),
  party_name: z.string(),
  is_host: z.boolean(),
  to_calendar: z.number().int().nullable(),
  to_calendar_name: z.string().nullable(),
});
export type OutOfServiceParty = z.infer<typeof outOfServiceParty>;

export const outOfServicePlan = z.object({
  calendar: z.number().int(),
  calendar_name: z.string(),
  from: z.string(),
  to: z.string(),
  /** Free times that become blackouts (every time of the range, once the bookings are gone). */
  times: z.number().int(),
  bookings: z.array(outOfServiceBooking),
  parties: z.array(outOfServiceParty),
});
export type OutOfServicePlan = z.infer<typeof outOfServicePlan>;

export const outOfServiceResult = outOfServicePlan.extend({ detail: z.string() });
export type OutOfServiceResult = z.infer<typeof outOfServiceResult>;

/**
 * The desk's price of a booking before it is made: each seat and time, and the total from the
 * pricing rule the customer's checkout uses (`POST /planner/book/quote`).
 */
export const plannerBookQuote = z.object({ user: idNumber, slots: seatSlots }).strict();
export type PlannerBookQuote = z.infer<typeof plannerBookQuote>;
export const plannerBookPrice = z.object({
  currency: z.string(),
  lines: z.array(
    z.object({
      calendar: z.number().int(),
      calendar_name: z.string(),
      slot: z.string(),
      cost_cents: z.number().int(),
      fee_cents: z.number().int(),
    }),
  ),
  fees_waived: z.boolean(),
  subtotal_cents: z.number().int(),
  tax_cents: z.number().int(),
  total_cents: z.number().int(),
});
export type PlannerBookPrice = z.infer<typeof plannerBookPrice>;

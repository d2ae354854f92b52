import { sql, type SQL } from 'drizzle-orm';
import {
  heldForSomeoneElse,
  inGoodStanding,
  seatTakesBookings,
  withinUnpaidLimit,
} from '../../lib/booking-rule-sql';
import { mergeSettings } from '../../plugins/settings';
import { heldToUnpaidLimit } from './unpaid-limit';
import { runLength } from './minimum-stay';

/**
 * The booking rules and every way in that books or moves a seat (issue 32, decisions 0086, 0103
 * and 0112).
 * Each rule is written once, in `definition`: the SQL ones in lib/booking-rule-sql.ts, which the
 * booking statement (book-seat.ts) renders over its columns and the services' queries (a
 * checkout's claim, a move, the planner) build over their parameters; the setting's parsing in
 * mergeSettings, whose value the statement takes as a parameter. booking-rules.test.ts drives
 * every rule through every entry point it names, fails when one of them lets the booking
 * through, and checks that the statements each entry point sent hold the definition's text.
 * A new rule, or a new way to book, goes here first; its test case is then missing and says so.
 */
export const BOOKING_ENTRY_POINTS = [
  /** POST /api/reservations by the customer (book-seat.ts's statement). */
  'customer booking',
  /** POST /api/reservations by staff for a customer (the same statement, as staff). */
  'staff booking',
  /** Quote, then process (claim-checkout.ts's transaction, decision 0094). */
  'checkout',
  /**
   * The one move road (move-reservation.ts `moveReservation`, decision 0112), whichever door:
   * POST /api/reservations/:id/move, PATCH/PUT /api/reservations/:id that moves a driver's
   * booking, and POST /api/planner/move. Its cases go through all three.
   */
  'move',
  /** POST /api/planner/book: the desk books for a customer (planner.service.ts `bookFor`). */
  'desk booking',
  /** POST /api/reservations with a club subscription (`createWithSubscription`). */
  'club booking',
] as const;
export type BookingEntryPoint = (typeof BOOKING_ENTRY_POINTS)[number];

/** Where a SQL rule's inputs go: its text around them is what every statement must hold. */
export const RULE_INPUT_MARK = '\u0000';
export const RULE_INPUT = sql.raw(RULE_INPUT_MARK);

type Rule = {
  /** The rule in the spec's terms. */
  says: string;
  /** Where it must hold; an entry point left out is one the rule does not concern. */
  on: readonly BookingEntryPoint[];
  /** The one place it is written: its SQL (inputs as RULE_INPUT), or the function that decides. */
  definition: SQL | ((...args: never[]) => unknown);
};

export const BOOKING_RULES = {
  'seat active': {
    says: 'A seat that is no longer active takes no booking, even one quoted while it was.',
    on: BOOKING_ENTRY_POINTS,
    definition: seatTakesBookings(RULE_INPUT),
  },
  'waitlist hold': {
    says: 'A seat-slot offered to someone on the waitlist is taken for everyone else.',
    on: BOOKING_ENTRY_POINTS,
    definition: heldForSomeoneElse({
      seat: RULE_INPUT,
      slot: RULE_INPUT,
      user: RULE_INPUT,
      now: RULE_INPUT,
    }),
  },
  'unpaid limit': {
    says: 'A customer holds at most max_unpaid_reservations unpaid future bookings.',
    on: ['customer booking', 'checkout'],
    definition: withinUnpaidLimit(RULE_INPUT, RULE_INPUT, RULE_INPUT, RULE_INPUT),
  },
  'unpaid limit spares staff': {
    says: 'Staff booking for a customer is not held to the unpaid limit.',
    on: ['staff booking', 'desk booking'],
    definition: heldToUnpaidLimit,
  },
  'unpaid limit setting': {
    says: 'A stored max_unpaid_reservations the contract refuses counts as the default.',
    on: ['customer booking', 'checkout'],
    definition: mergeSettings,
  },
  'club standing': {
    says: 'A club member in good standing (an active membership) pays no booking fee.',
    on: ['customer booking', 'staff booking', 'checkout', 'desk booking'],
    definition: inGoodStanding(RULE_INPUT),
  },
  'seat-type minimum': {
    says:
      "A seat type's minimum (VR: 2 hours) holds for every run of a customer's half-hours on a " +
      'seat that a booking makes, or a move makes or leaves behind, unless the whole run moves.',
    on: BOOKING_ENTRY_POINTS,
    definition: runLength,
  },
} as const satisfies Record<string, Rule>;
export type BookingRule = keyof typeof BOOKING_RULES;

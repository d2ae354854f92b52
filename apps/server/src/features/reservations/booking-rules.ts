/**
 * The booking rules and every way in that books a seat (issue 32, decision 0086). A raw
 * statement enforces them for speed (book-seat.ts, for a booking) while the services check them
 * where it does not run (a checkout's claim, a subscription booking, a move, the planner). So a
 * rule is written in more than one place, and this list is what keeps those places agreeing:
 * booking-rules.test.ts drives every rule below through every entry point it names and fails
 * when one of them lets the booking through.
 * A new rule, or a new way to book, goes here first; its test case is then missing and says so.
 */
export const BOOKING_ENTRY_POINTS = [
  /** POST /api/reservations by the customer (book-seat.ts's statement). */
  'customer booking',
  /** POST /api/reservations by staff for a customer (the same statement, as staff). */
  'staff booking',
  /** Quote, then process (claim-checkout.ts's transaction, decision 0094). */
  'checkout',
  /** POST /api/reservations/:id/move (move-reservation.ts). */
  'move',
] as const;
export type BookingEntryPoint = (typeof BOOKING_ENTRY_POINTS)[number];

type Rule = {
  /** The rule in the spec's terms. */
  says: string;
  /** Where it must hold; an entry point left out is one the rule does not concern. */
  on: readonly BookingEntryPoint[];
  /** Where it is written (statement and service), for whoever changes it. */
  writtenIn: readonly string[];
};

export const BOOKING_RULES = {
  'seat active': {
    says: 'A seat that is no longer active takes no booking, even one quoted while it was.',
    on: BOOKING_ENTRY_POINTS,
    writtenIn: [
      'book-seat.ts (seat_active)',
      'reservations.repo.ts findActiveSeats (resolveSeatSlots)',
    ],
  },
  'waitlist hold': {
    says: 'A seat-slot offered to someone on the waitlist is taken for everyone else.',
    on: BOOKING_ENTRY_POINTS,
    writtenIn: ['book-seat.ts (held_for_other)', 'waitlist.service.ts claimHeldSeats'],
  },
  'unpaid limit': {
    says:
      'A customer holds at most max_unpaid_reservations unpaid future bookings; staff booking ' +
      'for a customer is not held to it.',
    on: ['customer booking', 'staff booking', 'checkout'],
    writtenIn: ['book-seat.ts (unpaid, unpaid_limit)', 'unpaid-limit.ts assertUnpaidLimit'],
  },
  'unpaid limit setting': {
    says: 'A stored max_unpaid_reservations the contract refuses counts as the default.',
    on: ['customer booking', 'checkout'],
    writtenIn: ['book-seat.ts (unpaid_limit)', 'plugins/settings.ts mergeSettings'],
  },
  'club standing': {
    says: 'A club member in good standing (an active membership) pays no booking fee.',
    on: ['customer booking', 'staff booking', 'checkout'],
    writtenIn: ['book-seat.ts (member)', 'plugins/club-membership.ts isClubMemberInGoodStanding'],
  },
} as const satisfies Record<string, Rule>;
export type BookingRule = keyof typeof BOOKING_RULES;

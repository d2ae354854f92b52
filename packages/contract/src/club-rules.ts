// The club's numbers and texts that screens show before any schema is needed (the dashboard's
// club panel): kept apart from club.ts so they come without zod (decisions 0045, 0064).

/**
 * The club: a monthly credits subscription (docs/decisions/0007-club-credits.md).
 * 1 credit = 10 cents; one standard session = `club_credits_per_session` credits (250).
 */
export const CENTS_PER_CREDIT = 10;
/** The sessions-per-month spinner's upper bound (staff spec §5). */
export const CLUB_MAX_SESSIONS = 100;

/** The note under the sessions spinner, spelled as the spec has it; the server says the same. */
export const minimumSessionsMessage = (sessions: number) =>
  `Minimum of ${sessions} sessions per month required to join`;
export const NO_CARD_FOR_CLUB_MESSAGE = 'Add a payment method to add a new subscription';

// zod-free: what the booking grid needs of the contract's rules and words on its first paint,
// so the booking route does not load zod and the schemas before its screen (decision 0045;
// issue 46, decision 0126). calendars.ts and refunds.ts re-export them.

/** A seat type's minimum is a number of half-hour slots, up to a working day. */
export const MAX_MINIMUM_MINUTES = 480;

/** Why a booking is shorter than its seat type allows, in words (the server's and the grid's). */
export const minimumStayMessage = (typeName: string, minMinutes: number) =>
  `${typeName} seats are booked for at least ${durationWords(minMinutes)} in a row.`;

/** Why a move (or a blackout made a booking) is refused: it would leave a run too short. */
export const minimumStayLeftMessage = (typeName: string, minMinutes: number) =>
  `${minimumStayMessage(typeName, minMinutes)} Move the whole booking together.`;

/** 30 → "30 minutes", 120 → "2 hours", 90 → "1 hour 30 minutes". */
export function durationWords(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = hours === 0 ? '' : `${hours} hour${hours === 1 ? '' : 's'}`;
  const m = rest === 0 ? '' : `${rest} minutes`;
  return [h, m].filter(Boolean).join(' ') || '0 minutes';
}

/**
 * The waitlist's one rule (decision 0089): a time can be waited for only when the location has
 * seats and every one of them, of every type, is booked, blacked out or held for someone else.
 * The server refuses to join otherwise; the booking grid offers "Notify me" only then.
 */
export const slotIsFull = (seats: number, unavailable: number) => seats > 0 && unavailable >= seats;

/** The spec's prompt (customer §2) wherever availability needs an account first (0123). */
export const SIGN_UP_TO_SEE_AVAILABILITY = 'Sign up or Log in to view sim availability';

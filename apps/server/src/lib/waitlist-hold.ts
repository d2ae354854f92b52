import { and, eq, gt } from 'drizzle-orm';
import { waitlistEntries } from '../db/schema/refunds';

/**
 * A waitlist offer that still holds its seat at `now`: offered, and its hold not over
 * (docs/decisions/0034-refunds-rest.md). Availability, booking, the waitlist and the planner read
 * holds through this one condition.
 */
export const liveHold = (now: Date) =>
  and(eq(waitlistEntries.status, 'offered'), gt(waitlistEntries.holdUntil, now));

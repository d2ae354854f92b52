import type { Queryable } from './payments/charge-card';

/**
 * Whether a user is a club member in good standing (booking fees waived, credits redeemed).
 * The one place booking asks; the club feature (credits subscription) gives it its body.
 * Until then nobody is a member.
 */
export async function isClubMemberInGoodStanding(
  _db: Queryable,
  _userId: number,
): Promise<boolean> {
  return false;
}

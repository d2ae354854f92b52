import { cancellationPolicyText } from '@paddock/contract/refunds';
import type { VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../../db/client';
import type { CancellationPolicy } from '../../lib/cancellation-policy';
import { isClubMemberInGoodStanding } from '../../plugins/club-membership';
import type { Queryable } from '../../plugins/payments/charge-card';
import { getSettings } from '../../plugins/settings';

// Apart from refunds.service.ts: booking and checkout quote this policy, and the refunds service
// settles checkouts, so both importing it from there made an import circle (decision 0086).

/** The venue's policy, the location's overrides over it, and the club members' own window. */
export async function policyFor(
  db: Queryable,
  location: { cancellationWindowHours: number | null; lateCancellationKeepPercent: number | null },
  userId: number | null,
): Promise<CancellationPolicy & { text: string }> {
  const settings = await getSettings(db as Db);
  const clubMember =
    settings.club_cancellation_window_hours !== null &&
    userId !== null &&
    (await isClubMemberInGoodStanding(db, userId));
  return policyOf(location, settings, clubMember);
}

/** The policy from what policyFor reads, for a caller that read it in its own statement. */
export function policyOf(
  location: { cancellationWindowHours: number | null; lateCancellationKeepPercent: number | null },
  settings: VenueSettings,
  clubMember: boolean,
): CancellationPolicy & { text: string } {
  let windowHours = location.cancellationWindowHours ?? settings.cancellation_window_hours;
  const clubWindow = settings.club_cancellation_window_hours;
  if (clubWindow !== null && clubMember) windowHours = clubWindow;
  const lateKeepPercent =
    location.lateCancellationKeepPercent ?? settings.late_cancellation_keep_percent;
  return {
    windowHours,
    lateKeepPercent,
    text: cancellationPolicyText({ windowHours, lateKeepPercent }),
  };
}

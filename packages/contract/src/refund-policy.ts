// The cancellation policy's sentence, which the dashboard shows on its first paint: kept apart
// from refunds.ts so it comes without zod and the schemas (decisions 0045, 0064).

/** The policy sentence shown at checkout, in the booking e-mail and on the dashboard. */
export function cancellationPolicyText(policy: {
  windowHours: number;
  lateKeepPercent: number;
  clubWindowHours?: number | null;
  clubName?: string;
}): string {
  const hours = (n: number) => `${n} hour${n === 1 ? '' : 's'}`;
  const late =
    policy.lateKeepPercent >= 100
      ? 'Later cancellations and no-shows are not refunded.'
      : policy.lateKeepPercent <= 0
        ? 'Later cancellations and no-shows are refunded in full.'
        : `Later cancellations and no-shows are refunded ${100 - policy.lateKeepPercent}% of what was paid.`;
  const club =
    policy.clubWindowHours != null && policy.clubWindowHours !== policy.windowHours
      ? ` ${policy.clubName ?? 'Club'} members: free cancellation until ${hours(policy.clubWindowHours)} before.`
      : '';
  return `Free cancellation until ${hours(policy.windowHours)} before your session. ${late}${club}`;
}

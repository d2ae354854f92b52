import type { CheckoutResult } from '../../db/schema/booking';
import { bookingsCounter, checkoutsCounter } from '../../plugins/business-metrics';

/** A processed checkout's outcome, and the seats it booked, for paddock_*_total. */
export function countCheckout(result: CheckoutResult) {
  const body = result.body as { status?: string; reservations?: unknown[] };
  const outcome =
    result.statusCode === 200
      ? (body.status ?? 'paid')
      : result.statusCode === 402
        ? 'declined'
        : 'refused';
  checkoutsCounter.inc({ outcome });
  if (outcome === 'paid') bookingsCounter.inc({ via: 'checkout' }, body.reservations?.length ?? 0);
}

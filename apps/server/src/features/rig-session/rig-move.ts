import { DateTime } from 'luxon';
import type { RigMove, RigMoveResult } from '@paddock/contract/rig-map';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { moveReservation } from '../refunds/move-reservation';
import type { RefundContext } from '../refunds/refund-context';
import { slotAround } from '../planner/planner.service';
import { halfHourAt } from './rig-map';
import { oneSeatNow } from './seat-now';

/**
 * The rig map's Move (issue 42, decision 0127): the customer in session on a seat goes to
 * another seat for the rest of their time. The one move road (`moveReservation`, decision 0112)
 * takes the half-hour running now and the later ones of the run (`rest`), in one transaction,
 * with its price difference, audit row and mail; the time already driven stays where it was.
 */
export async function moveSession(
  ctx: RefundContext,
  caller: AuthUser,
  body: RigMove,
  now = new Date(),
): Promise<RigMoveResult> {
  const seat = await oneSeatNow(ctx.db, body.calendar, now);
  if (!seat)
    throw ValidationError.field(
      'calendar',
      `Invalid pk "${body.calendar}" - object does not exist.`,
    );
  if (body.to === body.calendar)
    throw ValidationError.field('to', 'Choose another seat than the one they are on.');
  const running = seat.current ? halfHourAt(seat.current, now) : null;
  if (!seat.current || running === null)
    throw ValidationError.field('calendar', `Nobody is in session on ${seat.seatName} now.`);
  const done = await moveReservation(
    ctx,
    caller,
    running,
    { calendar: body.to, slot: slotAround(now, seat.timezone), run: true, rest: true },
    now,
    'planner.move',
  );
  const who = seat.current.name ?? 'The customer';
  const until = DateTime.fromJSDate(seat.current.ends, { zone: seat.timezone }).toFormat('h:mm a');
  const money =
    done.charge_cents > 0
      ? ' The price difference was charged to the saved card.'
      : done.refunds.length > 0
        ? ' The price difference goes back to them.'
        : '';
  return {
    detail: `${who} moved from ${seat.seatName} for the rest of their time (until ${until}).${money}`,
    reservation_ids: done.reservation_ids,
  };
}

import type { AuthUser } from '../../plugins/auth';
import type { Queryable } from '../../plugins/payments/charge-card';
import { resolveSeatSlots, roleOf, type SeatSlot } from '../reservations/reservations.service';
import type { CheckoutRow } from './checkout.repo';

/** A checkout item's field in error bodies: `reservations.{index}.{name}`. */
export const itemField = (index: number, name: string) => `reservations.${index}.${name}`;

/** The checkout's seats and slots, checked again for the caller at `now`. */
export function resolveCheckoutItems(
  db: Queryable,
  caller: AuthUser,
  checkout: CheckoutRow,
  now: Date,
): Promise<SeatSlot[]> {
  return resolveSeatSlots(
    db,
    checkout.items.map((item) => ({ calendar: item.calendarId, slot: item.slot })),
    roleOf(caller),
    now,
    itemField,
    { userId: checkout.userId },
  );
}

// What every refund step works with (database, provider, mailer) and which bookings a caller
// may touch: their own, or any for staff who change reservations (docs/decisions/0027).
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { NotFound } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import type { Queryable } from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import * as repo from './refunds.repo';

export type RefundContext = {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
};

/** The context from the app's dependencies (a feature's routes build it once). */
export function refundContext(deps: Deps, logError: RefundContext['logError']): RefundContext {
  return {
    db: deps.database.db,
    payments: deps.payments,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    logError,
  };
}

export const isStaff = (caller: AuthUser) =>
  hasPermission(caller, 'reservations.change_reservation');

/** The caller's view of a live reservation, or 404 (someone else's does not exist for them). */
export async function visible(db: Queryable, caller: AuthUser, id: number, lock = false) {
  const row = await repo.findReservation(db, id, lock);
  if (!row || row.isBlackout) throw new NotFound();
  if (!isStaff(caller) && row.userId !== caller.id) throw new NotFound();
  return row;
}

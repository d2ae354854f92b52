import { and, asc, count, eq, gt, isNull, ne } from 'drizzle-orm';
import { CURRENT_PASSWORD_MISSING, CURRENT_PASSWORD_WRONG } from '@paddock/contract/accounts';
import type { DeletionBooking, DeletionPreview } from '@paddock/contract/my-data';
import { formatMoney } from '@paddock/contract/money-format';
import { reservations, voucherPurchases } from '../../db/schema/booking';
import { calendars, locations } from '../../db/schema/venue';
import { clubMemberships } from '../../db/schema/club';
import { laps } from '../../db/schema/laps';
import type { Db } from '../../db/client';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { Forbidden, NotFound, ValidationError } from '../../plugins/errors';
import { TooManyRequests, type AbuseLimits } from '../../plugins/abuse-limits';
import { getSettings } from '../../plugins/settings';
import { hashPassword, randomPassword, verifyPassword } from '../../lib/passwords';
import { anonymiseUser, findUserById } from '../accounts/accounts.repo';
import type { UserRow } from '../accounts/user-view';
import { recordAudit } from '../audit/audit.service';
import { stopWaitingPaymentsOf } from '../payment-challenges/stop-waiting-payments';
import type { RefundContext } from '../refunds/refund-context';
import { cancelReservation, quoteCancel } from '../refunds/refunds.service';
import { eraseTraces } from './erase-traces';
import { plural } from './counted';

// Deleting an account (issue 45, decision 0124): one function for the customer's own "Delete my
// account" and staff's deletion of a customer. Future bookings go through the one cancel path
// (refund under the policy, its mail, its audit row), then one transaction anonymises the
// person and writes the audit row: a crash leaves either the account whole or it deleted.

export type DeletionContext = RefundContext;

/** Staff who may delete (and export) a customer's account. */
export const CUSTOMER_ACCOUNT_PERMISSION = 'user.change_user';

/** The account `ref` means for the caller: their own, or a customer's for staff; else 404. */
export async function ownAccount(db: Db, caller: AuthUser, ref: number | 'me'): Promise<UserRow> {
  const id = ref === 'me' ? caller.id : ref;
  if (id !== caller.id && !hasPermission(caller, CUSTOMER_ACCOUNT_PERMISSION)) throw new NotFound();
  const row = await findUserById(db, id);
  if (!row || row.deletedAt) throw new NotFound();
  // Staff accounts are a superuser's business (as for changing them, decision 0016).
  if ((row.isSuperuser || row.isStaff) && !caller.isSuperuser && id !== caller.id)
    throw new NotFound();
  return row;
}

function assertDeletable(row: UserRow) {
  if (row.isStaff || row.isSuperuser)
    throw new Forbidden('Staff and superuser accounts cannot be deleted.');
}

/** The customer as the cancel path sees them (their own bookings, the policy). */
const asCustomer = (row: UserRow): AuthUser => ({
  id: row.id,
  isStaff: false,
  isSuperuser: false,
  permissions: new Set<string>(),
});

/** Who cancels the bookings: the customer, or the staff member deleting them (audited as such). */
function canceller(caller: AuthUser, row: UserRow): AuthUser {
  if (caller.id === row.id) return caller;
  const permissions = new Set([...caller.permissions, 'reservations.change_reservation']);
  return { ...caller, permissions };
}

async function futureBookings(db: Db, userId: number, now: Date) {
  return db
    .select({
      id: reservations.id,
      time: reservations.time,
      seat: calendars.name,
      location: locations.name,
      timezone: locations.timezone,
      currency: locations.currency,
    })
    .from(reservations)
    .innerJoin(calendars, eq(calendars.id, reservations.calendarId))
    .innerJoin(locations, eq(locations.id, calendars.locationId))
    .where(
      and(
        eq(reservations.userId, userId),
        isNull(reservations.cancelledAt),
        eq(reservations.isBlackout, false),
        gt(reservations.time, now),
      ),
    )
    .orderBy(asc(reservations.time), asc(reservations.id));
}

/** What deleting the account does, said before it is done; the refunds are the cancel quotes. */
export async function previewDeletion(
  ctx: DeletionContext,
  caller: AuthUser,
  ref: number | 'me',
  now = new Date(),
): Promise<DeletionPreview> {
  const row = await ownAccount(ctx.db, caller, ref);
  assertDeletable(row);
  const settings = await getSettings(ctx.db);
  const bookings: DeletionBooking[] = [];
  const future = await futureBookings(ctx.db, row.id, now);
  for (const b of future) {
    const quote = await quoteCancel(ctx.db, asCustomer(row), b.id, 'policy', now);
    bookings.push({
      reservation: b.id,
      location: b.location,
      seat: b.seat,
      starts_at: b.time.toISOString(),
      timezone: b.timezone,
      free: quote.free,
      refund: quote.refund,
    });
  }
  // The bookings' own currency (a location's); the venue's when there are none.
  const currency = future[0]?.currency ?? settings.default_currency;
  const total = bookings.reduce((sum, b) => sum + b.refund.total_cents, 0);
  const kept = bookings.reduce((sum, b) => sum + b.refund.kept_cents, 0);
  const statements: string[] = [];
  // Said to the customer, or to staff about them.
  const own = row.id === caller.id;
  const [Your, you, your] = own ? ['Your', 'you', 'your'] : ['Their', 'them', 'their'];
  if (bookings.length > 0) {
    const back = total > 0 ? `${formatMoney(total, currency)} comes back` : 'nothing comes back';
    const keptWords =
      kept > 0 ? `, ${formatMoney(kept, currency)} is kept as late cancellation` : '';
    statements.push(
      `Your ${plural(bookings.length, 'future booking')} ${bookings.length === 1 ? 'is' : 'are'} cancelled under the cancellation policy: ${back}${keptWords}. Each cancellation is mailed to ${you}.`,
    );
  } else statements.push(`${own ? 'You have' : 'They have'} no future bookings to cancel.`);
  const [membership] = await ctx.db
    .select({ id: clubMemberships.id })
    .from(clubMemberships)
    .where(and(eq(clubMemberships.userId, row.id), ne(clubMemberships.status, 'cancelled')));
  if (membership)
    statements.push(
      `${Your} ${settings.club_name} membership ends now: no more renewals, and unused credits go with the account.`,
    );
  const [{ bought }] = await ctx.db
    .select({ bought: count() })
    .from(voucherPurchases)
    .where(and(eq(voucherPurchases.buyerId, row.id), eq(voucherPurchases.status, 'paid')));
  if (bought > 0)
    statements.push(
      `The ${plural(bought, 'gift voucher')} ${own ? 'you' : 'they'} bought stay valid for whoever holds the code.`,
    );
  const [{ lapCount }] = await ctx.db
    .select({ lapCount: count() })
    .from(laps)
    .where(eq(laps.userId, row.id));
  if (lapCount > 0)
    statements.push(
      settings.deleted_driver_laps === 'remove'
        ? `${Your} ${plural(lapCount, 'lap')} leave the leaderboards.`
        : `${Your} ${plural(lapCount, 'lap')} stay on the leaderboards as “Deleted driver”.`,
    );
  statements.push(
    `${Your} name, e-mail, phone, racer name and the mails we sent ${you} are erased. Payment records stay, without ${your} name, as the law requires (see the privacy page).`,
    `${own ? 'You are' : 'They are'} logged out everywhere and cannot log in again.`,
  );
  return { bookings, refund_total_cents: total, statements };
}

/** Wrong passwords per account, as for a password change: a stolen session cannot guess long. */
const DELETE_PASSWORD_GUESSES = { max: 10, seconds: 15 * 60 };

async function confirmPassword(row: UserRow, given: string | undefined, limits: AbuseLimits) {
  if (!given) throw ValidationError.field('current_password', CURRENT_PASSWORD_MISSING);
  const guesses = { key: `current-password:user:${row.id}`, ...DELETE_PASSWORD_GUESSES };
  const state = await limits.exceeded(guesses);
  if (state.exceeded) throw new TooManyRequests(state.retryAfterSeconds);
  if (await verifyPassword(row.passwordHash, given)) return;
  await limits.hit(guesses);
  throw ValidationError.field('current_password', CURRENT_PASSWORD_WRONG);
}

/**
 * How a deletion is confirmed: one's own account by its current password ("Delete my account");
 * a customer's by staff with the customer-account permission (DELETE /users/{id}).
 */
export type DeletionConfirm =
  { by: 'own'; currentPassword?: string; limits: AbuseLimits } | { by: 'staff' };

/** Deletes the account; `now` is for tests of the policy's window. */
export async function deleteAccount(
  ctx: DeletionContext,
  caller: AuthUser,
  ref: number | 'me',
  confirm: DeletionConfirm,
  now = new Date(),
): Promise<void> {
  const row = await ownAccount(ctx.db, caller, ref);
  assertDeletable(row);
  if (confirm.by === 'own') {
    if (row.id !== caller.id) throw new NotFound();
    await confirmPassword(row, confirm.currentPassword, confirm.limits);
  } else if (row.id === caller.id) throw new Forbidden();
  // A payment waiting for the customer's bank ends first: nothing is taken after the account.
  await stopWaitingPaymentsOf(ctx, row.id);
  const by = canceller(caller, row);
  const bookings = await futureBookings(ctx.db, row.id, now);
  for (const b of bookings)
    await cancelReservation(ctx, by, b.id, { refund: 'policy', reason: 'Account deleted' }, now);
  await anonymise(ctx, caller, row, bookings.length);
}

/**
 * The last step of every deletion, also the inactive-customer job's: the person's fields and
 * traces go and the audit row is written, in one transaction; then the card is detached.
 */
export async function anonymise(
  ctx: DeletionContext,
  caller: AuthUser | null,
  row: UserRow,
  bookingsCancelled: number,
  reason: 'own' | 'staff' | 'inactive' = caller?.id === row.id ? 'own' : 'staff',
) {
  const settings = await getSettings(ctx.db);
  const card = await anonymiseUser(
    ctx.db,
    row.id,
    await hashPassword(randomPassword()),
    async (tx) => {
      await eraseTraces(tx, row, settings.deleted_driver_laps);
      await recordAudit(tx, caller, {
        action: 'user.delete',
        targetType: 'user',
        targetId: row.id,
        subjectUserId: row.id,
        before: { bookings_cancelled: bookingsCancelled },
        after: { anonymised: true, by: reason },
      });
    },
  );
  if (card && card.provider === ctx.payments.kind) {
    // The account is already gone here; a provider hiccup is logged for a retry by hand.
    await ctx.payments
      .detachCard(card)
      .catch((error: unknown) =>
        ctx.logError(error, `could not detach the card of deleted user ${row.id}`),
      );
  }
}

import { and, inArray } from 'drizzle-orm';
import type { User } from '@paddock/contract/accounts';
import type { Db } from '../../db/client';
import { clubMemberships, creditBalances } from '../../db/schema/club';
import { cards } from '../../db/schema/payments';

export type UserBilling = Pick<
  User,
  | 'credits_subscription_exists'
  | 'credits_subscription_in_good_standing'
  | 'credits_subscription_cancelable'
  | 'credits_balance'
  | 'credits_recurring'
  | 'credits_recurring_cents'
  | 'credits_cycle_day_of_month'
  | 'customer_id'
  | 'subscription_id'
>;

export const NO_BILLING: UserBilling = {
  credits_subscription_exists: false,
  credits_subscription_in_good_standing: false,
  credits_subscription_cancelable: false,
  credits_balance: 0,
  credits_recurring: 0,
  credits_recurring_cents: 0,
  credits_cycle_day_of_month: null,
  customer_id: null,
  subscription_id: null,
};

/**
 * The club and payment fields of each user, batched for lists (three queries whatever the
 * count). The single place these are derived (docs/decisions/0007-club-credits.md): a
 * subscription exists while the membership is active or past due (a declined renewal), is in
 * good standing while active, and can be cancelled whenever it exists; the balance is the
 * cached sum of the credits ledger; `customer_id` is the card provider's customer.
 */
export async function billingOf(
  db: Db,
  userIds: readonly number[],
): Promise<Map<number, UserBilling>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const [memberships, balances, customers] = await Promise.all([
    db
      .select()
      .from(clubMemberships)
      .where(
        and(
          inArray(clubMemberships.userId, ids),
          inArray(clubMemberships.status, ['active', 'past_due']),
        ),
      ),
    db.select().from(creditBalances).where(inArray(creditBalances.userId, ids)),
    db
      .select({ userId: cards.userId, customerRef: cards.customerRef })
      .from(cards)
      .where(inArray(cards.userId, ids)),
  ]);
  const membershipOf = new Map(memberships.map((m) => [m.userId, m]));
  const balanceOf = new Map(balances.map((b) => [b.userId, b.balance]));
  const customerOf = new Map(customers.map((c) => [c.userId, c.customerRef]));
  return new Map(
    userIds.map((id) => {
      const m = membershipOf.get(id);
      return [
        id,
        {
          credits_subscription_exists: m !== undefined,
          credits_subscription_in_good_standing: m?.status === 'active',
          credits_subscription_cancelable: m !== undefined,
          credits_balance: balanceOf.get(id) ?? 0,
          credits_recurring: m?.creditsPerMonth ?? 0,
          credits_recurring_cents: m?.priceCents ?? 0,
          credits_cycle_day_of_month: m?.cycleDay ?? null,
          customer_id: customerOf.get(id) ?? null,
          subscription_id: m ? String(m.id) : null,
        },
      ];
    }),
  );
}

import type { User } from '@paddock/contract/accounts';
import type { Db } from '../../db/client';

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
 * The club and payment fields of each user, batched for lists. The single place these are
 * derived: the club (credits subscription) replaces this body when it lands; until then every
 * user reads as having no subscription and no credits.
 */
export async function billingOf(
  _db: Db,
  userIds: readonly number[],
): Promise<Map<number, UserBilling>> {
  return new Map(userIds.map((id) => [id, NO_BILLING]));
}

import type { Charge, ChargesQuery } from '@paddock/contract/charges';
import type { Paginated } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { Forbidden } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import { chargeResponse } from '../../plugins/payments/charge-card';
import { countCharges, pageOfCharges } from './charges.repo';
import { accessibleUserId } from '../../plugins/user-access';

/** One's own charges; staff with user.change_user may look at another user's (`?user=`). */
export async function listCharges(
  db: Db,
  caller: AuthUser,
  query: ChargesQuery,
): Promise<Paginated<Charge>> {
  const userId = query.user ?? caller.id;
  if (userId !== caller.id && !hasPermission(caller, 'user.change_user')) throw new Forbidden();
  await accessibleUserId(db, caller, userId, ['user.change_user']);
  const filter = { userId, amountCentsGt: query.amount_cents__gt };
  const page = await paginate(
    query,
    () => countCharges(db, filter),
    (limit, offset) => pageOfCharges(db, filter, limit, offset),
  );
  return { ...page, results: page.results.map(chargeResponse) };
}

import { and, isNull, sql } from 'drizzle-orm';
import {
  EMAIL_TAKEN_MESSAGE,
  PHONE_TAKEN_MESSAGE,
  deskCustomerCreatedMessage,
  deskCustomerRequest,
  phoneKey,
  type DeskCustomerResponse,
} from '@paddock/contract/desk-customers';
import type { z } from 'zod';
import { users } from '../../db/schema/accounts';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { hashPassword, randomPassword } from '../../lib/passwords';
import { isUniqueViolation, pgError } from '../../lib/pg-errors';
import { recordAudit } from '../audit/audit.service';
import { billingOf } from './user-billing';
import { CHANGE_PASSWORD_PATH, mailLoginLink, type LoginLinkDeps } from './login-links';
import { displayName, toUserView, type UserRow } from './user-view';

type Body = z.output<typeof deskCustomerRequest>;

/**
 * A walk-in's account, made by staff at the desk (issue 30, decision 0082): a name and an e-mail
 * or a phone. The username is the e-mail, or for a phone-only customer the phone's digits, so
 * a second account for the same phone is refused like a second one for the same address. The
 * password is random and never shown; with an e-mail, a set-password link can be mailed.
 */
export async function createDeskCustomer(
  deps: LoginLinkDeps,
  caller: AuthUser,
  body: Body,
): Promise<DeskCustomerResponse> {
  const email = body.email.toLowerCase();
  const username = email || phoneKey(body.contact_phone);
  const row = await deps.db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ email: users.email })
      .from(users)
      .where(
        and(
          isNull(users.deletedAt),
          email
            ? sql`(lower(${users.email}) = ${email} or lower(${users.username}) = ${email})`
            : sql`lower(${users.username}) = ${username.toLowerCase()}`,
        ),
      )
      .limit(1);
    if (clash)
      throw email
        ? ValidationError.field('email', EMAIL_TAKEN_MESSAGE)
        : ValidationError.field('contact_phone', PHONE_TAKEN_MESSAGE);
    let created: UserRow;
    try {
      [created] = await tx
        .insert(users)
        .values({
          username,
          email,
          passwordHash: await hashPassword(randomPassword(32)),
          firstName: body.first_name,
          lastName: body.last_name,
          contactPhone: body.contact_phone,
        })
        .returning();
    } catch (error) {
      // Lost a race with another desk (or a signup) for the same address or phone.
      if (!isUniqueViolation(error)) throw error;
      throw pgError(error).constraint === 'users_email_lower' || email
        ? ValidationError.field('email', EMAIL_TAKEN_MESSAGE)
        : ValidationError.field('contact_phone', PHONE_TAKEN_MESSAGE);
    }
    await recordAudit(tx, caller, {
      action: 'user.create_customer',
      targetType: 'user',
      targetId: created.id,
      subjectUserId: created.id,
      after: {
        name: `${body.first_name} ${body.last_name}`.trim(),
        email: email || null,
        contact_phone: body.contact_phone || null,
      },
    });
    return created;
  });
  const mailed = body.send_login_link && email !== '';
  if (mailed) {
    await mailLoginLink(deps, row, 'desk_signup', CHANGE_PASSWORD_PATH);
    await recordAudit(deps.db, caller, {
      action: 'user.send_login_link',
      targetType: 'user',
      targetId: row.id,
      subjectUserId: row.id,
      after: { email },
    });
  }
  const billing = await billingOf(deps.db, [row.id]);
  return {
    user: toUserView(row, billing.get(row.id)!),
    detail: deskCustomerCreatedMessage(displayName(row), mailed ? email : null),
  };
}

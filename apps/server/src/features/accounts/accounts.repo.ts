import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  isNull,
  lt,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import type { Queryable } from '../../plugins/payments/charge-card';
import { loginTokens, userPermissions, users, userSearchText } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { clubMemberships } from '../../db/schema/club';
import { cards } from '../../db/schema/payments';
import { locations } from '../../db/schema/venue';
import type { UserRow } from './user-view';
import { escapeLike } from '../../lib/sql-text';
import { ValidationError } from '../../plugins/errors';

type NewUser = typeof users.$inferInsert;
type UserChanges = { [K in keyof Omit<NewUser, 'id'>]?: NewUser[K] | SQL };

const lowerEq = (column: AnyPgColumn | SQL, value: string) =>
  sql`lower(${column}) = lower(${value})`;

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Login by username or e-mail, case-insensitive; a username match wins over an e-mail match. */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      or(lowerEq(users.username, login), and(ne(users.email, ''), lowerEq(users.email, login))),
    )
    .orderBy(desc(lowerEq(users.username, login)))
    .limit(1);
  return row;
}

/** The account a signup collides with: same e-mail, or same username. */
export async function findUserByEmailOrUsername(
  db: Db,
  email: string,
  username: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(or(loginNameIs(email), loginNameIs(username)))
    .limit(1);
  return row;
}

/**
 * Users who log in with `name`: by username or by e-mail. A username may not be another user's
 * e-mail, nor an e-mail another user's username: either would lock that user out of logging in.
 */
const loginNameIs = (name: string) =>
  or(lowerEq(users.username, name), and(ne(users.email, ''), lowerEq(users.email, name)));

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(ne(users.email, ''), lowerEq(users.email, email)))
    .limit(1);
  return row;
}

export async function usernameTaken(db: Db, username: string, exceptId: number) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(loginNameIs(username), ne(users.id, exceptId)))
    .limit(1);
  return Boolean(row);
}

export async function emailTaken(db: Db, email: string, exceptId: number) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(loginNameIs(email), ne(users.id, exceptId)))
    .limit(1);
  return Boolean(row);
}

export async function locationExists(db: Db, id: number) {
  const [row] = await db.select({ id: locations.id }).from(locations).where(eq(locations.id, id));
  return Boolean(row);
}

export async function insertUser(db: Db, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row;
}

export async function updateUser(db: Queryable, id: number, values: UserChanges): Promise<UserRow> {
  if (Object.keys(values).length === 0) {
    const row = await findUserById(db, id);
    if (!row) throw new Error(`user ${id} vanished`);
    return row;
  }
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

export type RemovedCard = { provider: string; customerRef: string; paymentMethodRef: string };

/**
 * Deletes a customer the way the books allow (docs/decisions/0016-admin-user-page.md): in one
 * transaction the personal fields are blanked and the row becomes the anonymous placeholder
 * `deleted-user-{id}` that charges and past reservations keep pointing at; sessions, login
 * links, permissions and the saved card go; the club membership is cancelled (no renewal, no
 * charge-back). Future bookings must already be cancelled through the one cancel path (with
 * their refunds, decision 0124): one still live refuses the whole deletion. `more` runs the
 * caller's own steps (other tables' traces, the audit row) in the same transaction.
 * Answers the removed card, to be detached at the provider after the commit.
 */
export async function anonymiseUser(
  db: Db,
  id: number,
  unusablePasswordHash: string,
  more: (tx: Queryable) => Promise<void>,
): Promise<RemovedCard | undefined> {
  return db.transaction(async (tx) => {
    // The row first, locked: no booking of theirs can start while this runs.
    await tx.execute(sql`select 1 from ${users} where ${users.id} = ${id} for update`);
    const [live] = await tx
      .select({ id: reservations.id })
      .from(reservations)
      .where(
        and(
          eq(reservations.userId, id),
          isNull(reservations.cancelledAt),
          gt(reservations.time, sql`now()`),
        ),
      )
      .limit(1);
    if (live)
      throw ValidationError.nonField(
        'A booking was made while the account was being deleted. Try again.',
      );
    await tx
      .update(users)
      .set({
        username: `deleted-user-${id}`,
        email: '',
        passwordHash: unusablePasswordHash,
        isActive: false,
        isOnboarded: false,
        firstName: '',
        lastName: '',
        contactPhone: '',
        zipCode: '',
        racerName: '',
        flagCode: '',
        socialInstagram: '',
        simGuid: null,
        locationId: null,
        feedTokenHash: null,
        sessionVersion: sql`${users.sessionVersion} + 1`,
        deletedAt: sql`now()`,
      })
      .where(eq(users.id, id));
    await tx.delete(loginTokens).where(eq(loginTokens.userId, id));
    await tx.delete(userPermissions).where(eq(userPermissions.userId, id));
    const [card] = await tx.delete(cards).where(eq(cards.userId, id)).returning({
      provider: cards.provider,
      customerRef: cards.customerRef,
      paymentMethodRef: cards.paymentMethodRef,
    });
    await tx
      .update(clubMemberships)
      .set({ status: 'cancelled', cancelledAt: sql`now()` })
      .where(and(eq(clubMemberships.userId, id), ne(clubMemberships.status, 'cancelled')));
    await more(tx);
    return card;
  });
}

/** Records the login; `endOthers` also ends every earlier session (login-link logins). */
export async function touchLastLogin(
  db: Db,
  id: number,
  endOthers = false,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({
      lastLogin: sql`now()`,
      ...(endOthers ? { sessionVersion: sql`${users.sessionVersion} + 1` } : {}),
    })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Staff search: every word must appear somewhere in the searchable text (trigram-indexed). */
/** `withSuperusers: false` leaves superusers out: only a superuser sees them. */
export type UserSearch = { words: string[]; withSuperusers: boolean };

function searchCondition({ words, withSuperusers }: UserSearch): SQL | undefined {
  const text = userSearchText(users);
  return and(
    isNull(users.deletedAt),
    withSuperusers ? undefined : eq(users.isSuperuser, false),
    ...words.map((word) => ilike(text, `%${escapeLike(word)}%`)),
  );
}

export async function countUsers(db: Db, search: UserSearch): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(searchCondition(search));
  return row.n;
}

/**
 * `offset 0` in a subquery: PostgreSQL plans it on its own, not merged into the query around it
 * (drizzle leaves a plain 0 out, so it is written as SQL).
 */
const planApart = sql.raw('0') as unknown as number;

export async function listUsers(
  db: Db,
  search: UserSearch,
  limit: number,
  offset: number,
): Promise<UserRow[]> {
  // pg_trgm looks a word up by its three-letter pieces: a shorter word (or none) narrows
  // nothing, and walking the name index stops after a page.
  if (!search.words.some((word) => word.length >= 3))
    return db
      .select()
      .from(users)
      .where(searchCondition(search))
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
      .limit(limit)
      .offset(offset);
  // A search finds its matches by the trigram index, then sorts them: never a walk down the
  // name index filtering every row, which PostgreSQL picks when it guesses a word common (it
  // cannot know how rare a `%word%` is) and which reads much of a chain's users table for a
  // rare one (issue 33, decision 0111). The page then costs about what the count beside it costs.
  const matches = db
    .select()
    .from(users)
    .where(searchCondition(search))
    .offset(planApart)
    .as('matches');
  return db
    .select()
    .from(matches)
    .orderBy(asc(matches.lastName), asc(matches.firstName), asc(matches.id))
    .limit(limit)
    .offset(offset);
}

export async function insertLoginToken(
  db: Db,
  values: { userId: number; tokenHash: string; expiresAt: Date },
) {
  // Old links are kept a day for support questions, then dropped as new ones are made.
  await db.delete(loginTokens).where(lt(loginTokens.expiresAt, sql`now() - interval '1 day'`));
  await db.insert(loginTokens).values(values);
}

/** Marks a live link used; false when it is unknown, expired, used, or someone else's. */
export async function consumeLoginToken(db: Db, tokenHash: string, userId: number) {
  const rows = await db
    .update(loginTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(loginTokens.tokenHash, tokenHash),
        eq(loginTokens.userId, userId),
        isNull(loginTokens.usedAt),
        gt(loginTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: loginTokens.id });
  return rows.length === 1;
}

/** A new password makes the links mailed before it useless. */
export async function revokeLoginTokens(db: Db, userId: number) {
  await db
    .delete(loginTokens)
    .where(and(eq(loginTokens.userId, userId), isNull(loginTokens.usedAt)));
}

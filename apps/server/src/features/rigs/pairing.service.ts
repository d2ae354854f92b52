// Pairing a venue's PC with a seat (issue 43, decision 0121): the agent, without a key, asks for a
// short code and shows it; staff type it on the seat; the agent fetches the seat's new key once,
// with a secret only it knows. Pairing a seat again (a replaced PC) revokes its earlier keys.
import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { PAIRING_ALPHABET, PAIRING_MINUTES } from '@paddock/contract/rigs';
import type { Db } from '../../db/client';
import { rigPairings } from '../../db/schema/rigs';
import { rigKeys } from '../../db/schema/laps';
import { calendars } from '../../db/schema/venue';
import { sha256Hex } from '../../lib/hash';
import type { AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import { newRigKey } from '../laps/laps.service';

const expiresIn = sql`now() + make_interval(mins => ${PAIRING_MINUTES})`;

function newCode() {
  let code = '';
  for (let i = 0; i < 6; i++) code += PAIRING_ALPHABET[crypto.randomInt(PAIRING_ALPHABET.length)];
  return code;
}

/** `ABC234` as shown: `ABC-234`. */
export const showCode = (code: string) => `${code.slice(0, 3)}-${code.slice(3)}`;

/** A new code for a PC without a key; expired pairings go first. */
export async function startPairing(db: Db, hostname: string) {
  await db.delete(rigPairings).where(lt(rigPairings.expiresAt, sql`now()`));
  const secret = crypto.randomBytes(24).toString('base64url');
  for (;;) {
    const [row] = await db
      .insert(rigPairings)
      .values({ code: newCode(), secretHash: sha256Hex(secret), hostname, expiresAt: expiresIn })
      .onConflictDoNothing({ target: rigPairings.code })
      .returning();
    if (row) return { code: showCode(row.code), secret, expires: row.expiresAt.toISOString() };
  }
}

/** The agent asks with its secret: still waiting, or its key (handed over once). */
export async function pollPairing(db: Db, secret: string) {
  const secretHash = sha256Hex(secret);
  const [paired] = await db
    .delete(rigPairings)
    .where(
      and(
        eq(rigPairings.secretHash, secretHash),
        gt(rigPairings.expiresAt, sql`now()`),
        sql`${rigPairings.key} is not null`,
      ),
    )
    .returning({ key: rigPairings.key, calendar: rigPairings.calendarId });
  if (paired?.key && paired.calendar !== null) {
    const [seat] = await db
      .select({ name: calendars.name })
      .from(calendars)
      .where(eq(calendars.id, paired.calendar));
    return {
      state: 'paired' as const,
      key: paired.key,
      calendar: paired.calendar,
      calendar_name: seat?.name ?? '',
    };
  }
  const [waiting] = await db
    .select({ expiresAt: rigPairings.expiresAt })
    .from(rigPairings)
    .where(and(eq(rigPairings.secretHash, secretHash), gt(rigPairings.expiresAt, sql`now()`)));
  if (!waiting)
    throw new NotFound('This pairing code expired or is unknown: the rig asks for a new one.');
  return { state: 'waiting' as const, expires: waiting.expiresAt.toISOString() };
}

/** PCs showing a code now, newest first (staff may pick one instead of typing). */
export async function waitingRigs(db: Db) {
  const rows = await db
    .select()
    .from(rigPairings)
    .where(and(gt(rigPairings.expiresAt, sql`now()`), isNull(rigPairings.key)))
    .orderBy(sql`${rigPairings.createdAt} desc`);
  return rows.map((r) => ({
    code: showCode(r.code),
    hostname: r.hostname,
    created: r.createdAt.toISOString(),
  }));
}

/**
 * Staff typed a PC's code on a seat: a new key for the seat waits for that PC, and the seat's
 * earlier keys are revoked (the PC it replaces can no longer act for the seat). One transaction.
 */
export async function pairSeat(db: Db, actor: AuthUser, calendarId: number, code: string) {
  return db.transaction(async (tx) => {
    const [seat] = await tx
      .select({ id: calendars.id, name: calendars.name })
      .from(calendars)
      .where(eq(calendars.id, calendarId));
    if (!seat)
      throw ValidationError.field(
        'calendar',
        `Invalid pk "${calendarId}" - object does not exist.`,
      );
    const { key, keyHash } = newRigKey();
    const [pairing] = await tx
      .update(rigPairings)
      .set({ calendarId: seat.id, key, expiresAt: expiresIn })
      .where(
        and(
          eq(rigPairings.code, code),
          gt(rigPairings.expiresAt, sql`now()`),
          isNull(rigPairings.key),
        ),
      )
      .returning({ hostname: rigPairings.hostname });
    if (!pairing)
      throw ValidationError.field(
        'code',
        `No rig shows the code ${showCode(code)} now: check it on the rig's screen (a code lasts ${PAIRING_MINUTES} minutes).`,
      );
    const replaced = await tx
      .update(rigKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(rigKeys.calendarId, seat.id), isNull(rigKeys.revokedAt)))
      .returning({ label: rigKeys.label });
    const label = pairing.hostname || `Paired with ${showCode(code)}`;
    const [created] = await tx
      .insert(rigKeys)
      .values({ calendarId: seat.id, keyHash, label })
      .returning();
    await recordAudit(tx, actor, {
      action: 'rig_key.pair',
      targetType: 'calendar',
      targetId: seat.id,
      before: replaced.length ? { keys: replaced.map((r) => r.label) } : undefined,
      after: { label },
    });
    return {
      id: created.id,
      calendar: seat.id,
      calendar_name: seat.name,
      label: created.label,
      created: created.createdAt.toISOString(),
      revoked: false,
    };
  });
}

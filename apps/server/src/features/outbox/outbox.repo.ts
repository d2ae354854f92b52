import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { outboxMessages } from '../../db/schema/content';

export type OutboxRow = typeof outboxMessages.$inferSelect;
export type OutboxSummaryRow = Omit<OutboxRow, 'text' | 'html'>;

/** The list reads no bodies: they never leave the database unless one message is opened. */
const summaryColumns = {
  id: outboxMessages.id,
  to: outboxMessages.to,
  subject: outboxMessages.subject,
  createdAt: outboxMessages.createdAt,
};

/** Mail addressed to a staff or superuser account (it may hold their login links). */
const toPrivilegedAccount = sql`exists (
  select 1 from ${users}
  where lower(${users.email}) = lower(${outboxMessages.to})
    and ${users.email} <> ''
    and (${users.isStaff} or ${users.isSuperuser})
)`;

const visible = (includePrivileged: boolean): SQL | undefined =>
  includePrivileged ? undefined : sql`not ${toPrivilegedAccount}`;

export async function countMessages(db: Db, includePrivileged: boolean): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(outboxMessages)
    .where(visible(includePrivileged));
  return row.n;
}

export async function listMessages(
  db: Db,
  includePrivileged: boolean,
  limit: number,
  offset: number,
): Promise<OutboxSummaryRow[]> {
  return db
    .select(summaryColumns)
    .from(outboxMessages)
    .where(visible(includePrivileged))
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(limit)
    .offset(offset);
}

export async function findMessage(
  db: Db,
  id: number,
  includePrivileged: boolean,
): Promise<OutboxRow | undefined> {
  const [row] = await db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.id, id), visible(includePrivileged)))
    .limit(1);
  return row;
}

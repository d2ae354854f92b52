import { and, desc, eq, like, sql, type SQL } from 'drizzle-orm';
import { displayNameSql } from '../../lib/display-name-sql';
import { alias } from 'drizzle-orm/pg-core';
import type { AuditEvent } from '@paddock/contract/audit';
import type { Paginated } from '@paddock/contract/common';
import { users } from '../../db/schema/accounts';
import { auditEvents, auditTotals } from '../../db/schema/audit';
import type { Db } from '../../db/client';
import { escapeLike } from '../../lib/sql-text';
import type { AuthUser } from '../../plugins/auth';
import type { Queryable } from '../../plugins/payments/charge-card';
import { paginate } from '../../plugins/pagination';
import { auditNames } from './audit-names';

export type AuditEntry = {
  action: string;
  targetType: string;
  targetId?: number | null;
  subjectUserId?: number | null;
  before?: unknown;
  after?: unknown;
};

/**
 * Records a staff action. Call it with the action's own transaction, so the trail and the
 * change are committed together or not at all.
 */
export async function recordAudit(
  tx: Queryable,
  actor: AuthUser | null,
  entries: AuditEntry | AuditEntry[],
) {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  await tx.insert(auditEvents).values(
    list.map((entry) => ({
      actorId: actor?.id ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      subjectUserId: entry.subjectUserId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    })),
  );
}

const actor = alias(users, 'actor');
const subject = alias(users, 'subject');
type Query = { page: number; page_size: number; user?: number; actor?: number; action?: string };

export async function listAudit(db: Db, query: Query): Promise<Paginated<AuditEvent>> {
  const filters: SQL[] = [];
  if (query.user !== undefined) filters.push(eq(auditEvents.subjectUserId, query.user));
  if (query.actor !== undefined) filters.push(eq(auditEvents.actorId, query.actor));
  if (query.action !== undefined)
    filters.push(
      query.action.includes('.')
        ? eq(auditEvents.action, query.action)
        : like(auditEvents.action, `${escapeLike(query.action)}.%`),
    );
  const where = filters.length ? and(...filters) : undefined;
  return paginate(
    query,
    async () =>
      // The whole trail's count is kept at each commit (decision 0108): counting a chain's
      // trail row by row grows with every year. A filtered trail is counted by its index.
      where === undefined
        ? ((await db.select({ n: auditTotals.events }).from(auditTotals))[0]?.n ?? 0)
        : (
            await db
              .select({ n: sql<number>`count(*)::int` })
              .from(auditEvents)
              .where(where)
          )[0].n,
    async (limit, offset) => {
      const rows = await db
        .select({
          event: auditEvents,
          actorName: displayNameSql(actor),
          subjectName: displayNameSql(subject),
          subjectDeleted: sql<boolean>`${subject.deletedAt} is not null`,
        })
        .from(auditEvents)
        .leftJoin(actor, eq(actor.id, auditEvents.actorId))
        .leftJoin(subject, eq(subject.id, auditEvents.subjectUserId))
        .where(where)
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(limit)
        .offset(offset);
      const names = await auditNames(
        db,
        rows.map(({ event }) => event),
      );
      return rows.map(({ event, actorName, subjectName, subjectDeleted }) => ({
        id: event.id,
        at: event.at.toISOString(),
        actor: event.actorId,
        actor_name: actorName,
        action: event.action,
        target_type: event.targetType,
        target_id: event.targetId,
        subject_user: event.subjectUserId,
        subject_name: subjectDeleted ? null : subjectName,
        subject_deleted: subjectDeleted,
        target_name:
          event.targetId === null ? null : (names[`${event.targetType}:${event.targetId}`] ?? null),
        names,
        before: event.before ?? null,
        after: event.after ?? null,
      }));
    },
  );
}

import type { OutboxMessage, OutboxSummary } from '@paddock/contract/outbox';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { Forbidden, NotFound } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import * as repo from './outbox.repo';

const toSummary = (row: repo.OutboxSummaryRow): OutboxSummary => ({
  id: row.id,
  to: row.to,
  subject: row.subject,
  status: 'sent',
  created: row.createdAt.toISOString(),
});

const toMessage = (row: repo.OutboxRow): OutboxMessage => ({
  ...toSummary(row),
  text: row.text,
  html: row.html,
});

/**
 * The outbox holds login links, so reading it is reading other people's keys. Staff who may
 * change users (and can mail them links anyway) read customers' mail; only a superuser reads
 * mail addressed to staff and superuser accounts.
 */
function scope(caller: AuthUser): { includePrivileged: boolean } {
  if (caller.isSuperuser) return { includePrivileged: true };
  if (!caller.isStaff || !hasPermission(caller, 'outbox.view_message')) throw new Forbidden();
  return { includePrivileged: false };
}

export async function listOutbox(
  db: Db,
  caller: AuthUser,
  query: PaginationQuery,
): Promise<Paginated<OutboxSummary>> {
  const { includePrivileged } = scope(caller);
  const page = await paginate(
    query,
    () => repo.countMessages(db, includePrivileged),
    (limit, offset) => repo.listMessages(db, includePrivileged, limit, offset),
  );
  return { ...page, results: page.results.map(toSummary) };
}

export async function getOutboxMessage(
  db: Db,
  caller: AuthUser,
  id: number,
): Promise<OutboxMessage> {
  const { includePrivileged } = scope(caller);
  const row = await repo.findMessage(db, id, includePrivileged);
  if (!row) throw new NotFound();
  return toMessage(row);
}

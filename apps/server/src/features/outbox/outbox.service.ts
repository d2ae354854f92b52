import type { OutboxMessage, OutboxResend, OutboxSummary } from '@paddock/contract/outbox';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { Forbidden, NotFound } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import { paginate } from '../../plugins/pagination';
import { recordAudit } from '../audit/audit.service';
import * as repo from './outbox.repo';

const toSummary = (row: repo.OutboxSummaryRow): OutboxSummary => ({
  id: row.id,
  to: row.to,
  subject: row.subject,
  // Only mail kept while no mail server was set is stored: none of it was sent (decision 0115).
  status: 'kept',
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

/**
 * The same mail again, to the same address, by whoever may open it (the privileged-mail scope
 * too). With no mail server a new copy is kept, in one transaction with its audit row; with one,
 * it is handed over first and audited once it went. Attachments are not kept, so none go again.
 */
export async function resendOutboxMessage(
  db: Db,
  mail: { mailer: Mailer; server: boolean },
  caller: AuthUser,
  id: number,
): Promise<OutboxResend> {
  const { includePrivileged } = scope(caller);
  const row = await repo.findMessage(db, id, includePrivileged);
  if (!row) throw new NotFound();
  const message = { to: row.to, subject: row.subject, text: row.text, html: row.html || undefined };
  const status = mail.server ? 'sent' : 'kept';
  const audit = {
    action: 'outbox.resend',
    targetType: 'outbox_message',
    targetId: id,
    after: { to: row.to, subject: row.subject, status },
  };
  if (mail.server) {
    await mail.mailer.send(message);
    await recordAudit(db, caller, audit);
    return { status, detail: `Sent “${row.subject}” again to ${row.to}.` };
  }
  await db.transaction(async (tx) => {
    await mail.mailer.send(message, tx);
    await recordAudit(tx, caller, audit);
  });
  return {
    status,
    detail: `Kept a new copy of “${row.subject}” to ${row.to} in the outbox: no mail server is set, so it was not sent.`,
  };
}

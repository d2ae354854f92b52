import type { Page, PageDetail, PageUpdate, PageWrite } from '@paddock/contract/pages';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { NotFound } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import * as repo from './pages.repo';
import { sanitizePageHtml } from './sanitize-page-html';
import { publishChange } from '../../plugins/changes';
import type { AuthUser } from '../../plugins/auth';
import { recordAudit } from '../audit/audit.service';
import { changedFields } from '../audit/audit-diff';

const toDetail = (row: repo.PageRow): PageDetail => ({
  id: row.id,
  name: row.name,
  menu_name: row.menuName,
  menu_order: row.menuOrder,
  content: row.content,
});

/** What the server would store for this HTML: the editor's live preview. */
export const previewPage = (content: string) => ({ content: sanitizePageHtml(content) });

export async function listPages(db: Db, query: PaginationQuery): Promise<Paginated<Page>> {
  const page = await paginate(
    query,
    () => repo.countPages(db),
    (limit, offset) => repo.listPages(db, limit, offset),
  );
  return {
    ...page,
    results: page.results.map((r) => ({
      id: r.id,
      name: r.name,
      menu_name: r.menuName,
      menu_order: r.menuOrder,
    })),
  };
}

export async function getPage(db: Db, id: number): Promise<PageDetail> {
  const row = await repo.findPage(db, id);
  if (!row) throw new NotFound();
  await publishChange(db, 'pages', id);
  return toDetail(row);
}

/** What the trail keeps of a page: its fields without the HTML, which can be long. */
const audited = (row: repo.PageRow) => ({
  name: row.name,
  menu_name: row.menuName,
  menu_order: row.menuOrder,
});

export async function createPage(db: Db, actor: AuthUser, body: PageWrite): Promise<PageDetail> {
  const row = await db.transaction(async (tx) => {
    const created = await repo.insertPage(tx, {
      name: body.name,
      menuName: body.menu_name,
      menuOrder: body.menu_order,
      content: sanitizePageHtml(body.content),
    });
    await recordAudit(tx, actor, {
      action: 'page.create',
      targetType: 'page',
      targetId: created.id,
      after: audited(created),
    });
    return created;
  });
  await publishChange(db, 'pages', row.id);
  return toDetail(row);
}

export async function updatePage(
  db: Db,
  actor: AuthUser,
  id: number,
  body: PageUpdate,
): Promise<PageDetail> {
  const row = await db.transaction(async (tx) => {
    const old = await repo.findPage(tx, id);
    if (!old) return undefined;
    const updated = await repo.updatePage(tx, id, {
      name: body.name,
      menuName: body.menu_name,
      menuOrder: body.menu_order,
      content: body.content === undefined ? undefined : sanitizePageHtml(body.content),
    });
    if (!updated) return undefined;
    const fields = changedFields(audited(old), audited(updated));
    const contentChanged = old.content !== updated.content;
    if (fields || contentChanged)
      await recordAudit(tx, actor, {
        action: 'page.update',
        targetType: 'page',
        targetId: id,
        // The HTML itself is not copied into the trail: that it changed is what the desk needs.
        before: fields?.before ?? null,
        after: { ...fields?.after, ...(contentChanged ? { content: 'changed' } : {}) },
      });
    return updated;
  });
  if (!row) throw new NotFound();
  if (Object.values(body).some((v) => v !== undefined)) await publishChange(db, 'pages', id);
  return toDetail(row);
}

export async function deletePage(db: Db, actor: AuthUser, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const old = await repo.findPage(tx, id);
    if (!old || !(await repo.deletePage(tx, id))) throw new NotFound();
    await recordAudit(tx, actor, {
      action: 'page.delete',
      targetType: 'page',
      targetId: id,
      before: audited(old),
    });
  });
  await publishChange(db, 'pages', id);
}

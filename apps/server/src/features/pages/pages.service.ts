import type { Page, PageDetail, PageUpdate, PageWrite } from '@paddock/contract/pages';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { NotFound } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import * as repo from './pages.repo';
import { sanitizePageHtml } from './sanitize-page-html';
import { publishChange } from '../../plugins/changes';

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

export async function createPage(db: Db, body: PageWrite): Promise<PageDetail> {
  const row = await repo.insertPage(db, {
    name: body.name,
    menuName: body.menu_name,
    menuOrder: body.menu_order,
    content: sanitizePageHtml(body.content),
  });
  await publishChange(db, 'pages', row.id);
  return toDetail(row);
}

export async function updatePage(db: Db, id: number, body: PageUpdate): Promise<PageDetail> {
  const row = await repo.updatePage(db, id, {
    name: body.name,
    menuName: body.menu_name,
    menuOrder: body.menu_order,
    content: body.content === undefined ? undefined : sanitizePageHtml(body.content),
  });
  if (!row) throw new NotFound();
  if (Object.values(body).some((v) => v !== undefined)) await publishChange(db, 'pages', id);
  return toDetail(row);
}

export async function deletePage(db: Db, id: number): Promise<void> {
  if (!(await repo.deletePage(db, id))) throw new NotFound();
  await publishChange(db, 'pages', id);
}

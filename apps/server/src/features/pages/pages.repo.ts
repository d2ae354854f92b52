import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Queryable } from '../../plugins/payments/charge-card';
import { pages } from '../../db/schema/content';

export type PageRow = typeof pages.$inferSelect;
type PageValues = { name: string; menuName: string; menuOrder: number; content: string };

export async function countPages(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(pages);
  return row.n;
}

export async function listPages(db: Db, limit: number, offset: number) {
  return db
    .select({
      id: pages.id,
      name: pages.name,
      menuName: pages.menuName,
      menuOrder: pages.menuOrder,
    })
    .from(pages)
    .orderBy(asc(pages.menuOrder), asc(pages.id))
    .limit(limit)
    .offset(offset);
}

export async function findPage(db: Queryable, id: number): Promise<PageRow | undefined> {
  const [row] = await db.select().from(pages).where(eq(pages.id, id));
  return row;
}

export async function insertPage(db: Queryable, values: PageValues): Promise<PageRow> {
  const [row] = await db.insert(pages).values(values).returning();
  return row;
}

export async function updatePage(
  db: Queryable,
  id: number,
  values: Partial<PageValues>,
): Promise<PageRow | undefined> {
  // An empty PATCH (`{}`, or only undefined fields) changes nothing and answers the page.
  const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return findPage(db, id);
  const [row] = await db
    .update(pages)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(pages.id, id))
    .returning();
  return row;
}

export async function deletePage(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.delete(pages).where(eq(pages.id, id)).returning({ id: pages.id });
  return rows.length > 0;
}

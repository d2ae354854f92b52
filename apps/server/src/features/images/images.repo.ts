import { count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { images } from '../../db/schema/images';
import { settings } from '../../db/schema/content';
import { calendars, calendarTypes } from '../../db/schema/venue';

export type ImageRow = typeof images.$inferSelect;
type NewImage = typeof images.$inferInsert;

export async function countImages(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(images);
  return row.n;
}

/** Newest first: the picker shows what was just uploaded at the top. */
export async function listImages(db: Db, limit: number, offset: number): Promise<ImageRow[]> {
  return db.select().from(images).orderBy(desc(images.id)).limit(limit).offset(offset);
}

export async function findImage(db: Db, id: number): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row;
}

/** The row for these bytes: a new one, or the one an earlier upload of the same file made. */
export async function insertImage(db: Db, values: NewImage): Promise<ImageRow> {
  const [row] = await db.insert(images).values(values).onConflictDoNothing().returning();
  if (row) return row;
  const [existing] = await db.select().from(images).where(eq(images.file, values.file));
  return existing;
}

export async function deleteImage(db: Db, id: number): Promise<ImageRow | undefined> {
  const [row] = await db.delete(images).where(eq(images.id, id)).returning();
  return row;
}

/** What still shows this image: venue settings keys, seat types and seats by name. */
export async function usesOf(db: Db, url: string): Promise<string[]> {
  const [setting, types, seats] = await Promise.all([
    db
      .select({ key: settings.key })
      .from(settings)
      .where(sql`${settings.value} = to_jsonb(${url}::text)`),
    db.select({ name: calendarTypes.name }).from(calendarTypes).where(eq(calendarTypes.image, url)),
    db.select({ name: calendars.name }).from(calendars).where(eq(calendars.image, url)),
  ]);
  return [
    ...setting.map((s) => `the venue setting ${s.key}`),
    ...types.map((t) => `the seat type ${t.name}`),
    ...seats.map((s) => `the seat ${s.name}`),
  ];
}

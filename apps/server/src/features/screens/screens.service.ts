import fs from 'node:fs';
import path from 'node:path';
import { desc, eq, lt, sql } from 'drizzle-orm';
import { SCREEN_ONLINE_SECONDS, type Screen } from '@paddock/contract/screens';
import type { Db } from '../../db/client';
import { screens } from '../../db/schema/screens';
import { publishChange } from '../../plugins/changes';
import { NotFound } from '../../plugins/errors';

/** Screens kept at most; names not seen for FORGET_DAYS make room for new ones. */
export const SCREENS_MAX = 200;
const FORGET_DAYS = 7;

/**
 * The build the server serves: the entry script index.html loads (`/assets/index-<hash>.js`),
 * which changes with every build. A screen reads the same tag from the page it runs, so a
 * screen on an older build knows it. Null when no built web app is served (API tests, dev).
 */
export function readBuildId(webDist: string | undefined): string | null {
  if (!webDist) return null;
  try {
    const html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
    return /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)?.[1] ?? null;
  } catch {
    return null;
  }
}

export type CheckIn = { name: string; path: string; build: string | null; userAgent: string };

/**
 * A screen says it is there (on connecting and at every heartbeat). Anyone may name a screen,
 * so names are capped: when the table is full, the longest-silent names older than a week go;
 * if none can, the screen still gets its feed but is not listed (null).
 */
export async function checkIn(db: Db, screen: CheckIn): Promise<number | null> {
  const values = {
    name: screen.name,
    path: screen.path,
    build: screen.build,
    userAgent: screen.userAgent.slice(0, 300),
    lastSeen: new Date(),
  };
  const updated = await db
    .update(screens)
    .set(values)
    .where(eq(screens.name, screen.name))
    .returning({ id: screens.id });
  if (updated.length) return updated[0].id;
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(screens);
  if (count >= SCREENS_MAX) {
    await db
      .delete(screens)
      .where(lt(screens.lastSeen, sql`now() - make_interval(days => ${FORGET_DAYS})`));
    const [{ left }] = await db.select({ left: sql<number>`count(*)::int` }).from(screens);
    if (left >= SCREENS_MAX) return null;
  }
  const [row] = await db
    .insert(screens)
    .values(values)
    .onConflictDoUpdate({ target: screens.name, set: values })
    .returning({ id: screens.id });
  return row.id;
}

export async function listScreens(db: Db): Promise<Screen[]> {
  const rows = await db
    .select({
      id: screens.id,
      name: screens.name,
      path: screens.path,
      build: screens.build,
      userAgent: screens.userAgent,
      firstSeen: screens.firstSeen,
      lastSeen: screens.lastSeen,
      online: sql<boolean>`${screens.lastSeen} > now() - make_interval(secs => ${SCREEN_ONLINE_SECONDS})`,
    })
    .from(screens)
    .orderBy(desc(screens.lastSeen));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    path: r.path,
    build: r.build,
    user_agent: r.userAgent,
    first_seen: r.firstSeen.toISOString(),
    last_seen: r.lastSeen.toISOString(),
    online: r.online,
  }));
}

/** Tells one screen, or all of them (`screenId` null), to reload: a `screens` change. */
export async function orderReload(db: Db, screenId: number | null): Promise<void> {
  if (screenId !== null) {
    const [row] = await db.select({ id: screens.id }).from(screens).where(eq(screens.id, screenId));
    if (!row) throw new NotFound('No such screen.');
  }
  await publishChange(db, 'screens', screenId);
}

export async function forgetScreen(db: Db, id: number): Promise<void> {
  const gone = await db.delete(screens).where(eq(screens.id, id)).returning({ id: screens.id });
  if (!gone.length) throw new NotFound('No such screen.');
}

import { sql } from 'drizzle-orm';
import type { Queryable } from '../../plugins/payments/charge-card';
import { settings } from '../../db/schema/content';

export async function writeSettings(db: Queryable, values: Record<string, unknown>) {
  const entries = Object.entries(values);
  if (entries.length === 0) return;
  await db
    .insert(settings)
    .values(entries.map(([key, value]) => ({ key, value })))
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
}

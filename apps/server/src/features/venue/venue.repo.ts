import { sql } from 'drizzle-orm';
import type { Queryable } from '../../plugins/payments/charge-card';
import { settings } from '../../db/schema/content';

export async function writeSettings(db: Queryable, values: Record<string, unknown>) {
  const entries = Object.entries(values);
  if (entries.length === 0) return;
  await db
    .insert(settings)
    // A null setting (e.g. no club cancellation window) is stored as JSON null, not SQL NULL.
    .values(entries.map(([key, value]) => ({ key, value: value ?? sql`'null'::jsonb` })))
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
}

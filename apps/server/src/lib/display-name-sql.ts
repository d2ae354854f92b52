import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

type NameColumns = {
  racerName: AnyColumn | SQL;
  firstName: AnyColumn | SQL;
  lastName: AnyColumn | SQL;
  email: AnyColumn | SQL;
};

/**
 * The app's display name in SQL (as `displayName` in reservations.service): racer name, else
 * full name, else e-mail. For answers PostgreSQL writes itself (planner day, audit trail).
 */
export function displayNameSql(u: NameColumns): SQL<string | null> {
  return sql<
    string | null
  >`coalesce(nullif(${u.racerName}, ''), nullif(trim(${u.firstName} || ' ' || ${u.lastName}), ''), nullif(${u.email}, ''))`;
}

/** The same for a users row under a table alias in hand-written SQL (`u` → `u.racer_name`…). */
export function displayNameOfAlias(alias: string): SQL<string | null> {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  return displayNameSql({
    racerName: col('racer_name'),
    firstName: col('first_name'),
    lastName: col('last_name'),
    email: col('email'),
  });
}

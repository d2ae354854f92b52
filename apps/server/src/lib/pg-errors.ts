/** PostgreSQL's error fields, as drizzle passes them on (the driver error is its `cause`). */
type PgError = { code?: string; constraint?: string };

export const pgError = (error: unknown): PgError =>
  typeof error === 'object' && error !== null
    ? ((error as { cause?: PgError }).cause ?? (error as PgError))
    : {};
export const isUniqueViolation = (error: unknown) => pgError(error).code === '23505';
export const isForeignKeyViolation = (error: unknown) => pgError(error).code === '23503';

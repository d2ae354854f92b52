/**
 * Per-connection-pool prepared statements for the hot paths (docs/benchmarks.md). A drizzle
 * prepared query is bound to the database (or transaction) it was built on, so each one is kept
 * per handle: the SQL text is built once instead of on every request, and the named statement
 * is parsed and planned once per PostgreSQL connection. Only the statement is reused, never
 * its results.
 */
export function preparedPer<Handle extends object, Query>(
  build: (handle: Handle) => Query,
): (handle: Handle) => Query {
  const built = new WeakMap<Handle, Query>();
  return (handle) => {
    let query = built.get(handle);
    if (query === undefined) {
      query = build(handle);
      built.set(handle, query);
    }
    return query;
  };
}

/**
 * The fields that differ between two answers of one object, before and after, for the audit
 * trail: only what changed is kept, in the API's own (snake_case) names, so the screen can put
 * them in words. Null when nothing changed (an empty PATCH is not an act).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: readonly string[] = Object.keys(after),
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const changed = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length === 0) return null;
  return {
    before: Object.fromEntries(changed.map((k) => [k, before[k] ?? null])),
    after: Object.fromEntries(changed.map((k) => [k, after[k] ?? null])),
  };
}

/** `changedFields` split in two: the listed keys as their own act, the rest as another. */
export function splitChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  own: readonly string[],
) {
  const rest = Object.keys(after).filter((k) => !own.includes(k));
  return { own: changedFields(before, after, own), rest: changedFields(before, after, rest) };
}

import crypto from 'node:crypto';
import type { Sim } from '../../db/schema/laps';

/** A results file as the importer uses it, whichever simulator wrote it. */
export type ParsedSession = {
  sim: Sim;
  trackKey: string;
  layout: string;
  kind: 'RACE' | 'QUALIFY' | 'PRACTICE';
  serverName: string;
  /**
   * The session's identity from its content (sim, server, track, layout, the file's own session
   * type, its start), so the same session re-saved, re-encoded or with one more newline is
   * recognised; its bytes are not.
   */
  sessionKey: string;
  laps: ParsedLap[];
  results: ParsedResult[];
};
export type ParsedLap = {
  guid: string;
  name: string;
  carKey: string;
  lapMs: number;
  sectorsMs: number[];
  cuts: number;
  ballastKg: number | null;
  valid: boolean;
  /** Milliseconds into the session, to order laps in time; null when the file has none. */
  atMs: number | null;
  /** The car's id in the file: the entry-list index on an AC server (car → seat). */
  carId: number | null;
  /** This lap's number for its car (1, 2, …), counted in file order over every lap the file
   *  lists for that car: what a live LAP_COMPLETED count of the same car reaches. */
  carLap: number;
};
export type ParsedResult = {
  position: number;
  guid: string;
  name: string;
  team: string;
  carKey: string;
  carId: number | null;
  bestLapMs: number | null;
  totalMs: number | null;
  laps: number;
};

export class ResultsFileError extends Error {}

/** AC writes 999999999 for "no lap". */
export const NO_TIME = 999_999_999;
export const timeOrNull = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v < NO_TIME ? v : null;
// Control characters (NUL above all: PostgreSQL refuses it in text) are spaces in a name.
// eslint-disable-next-line no-control-regex -- replacing control characters is the point
export const SPACES = /[\s\u0000-\u001f\u007f]+/g;
export const text = (v: unknown) => (typeof v === 'string' ? v.replace(SPACES, ' ').trim() : '');
export const int = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : 0;
/** A whole number within [min, max] (what the rig API and the columns take), or null. */
export const intIn = (v: unknown, min: number, max: number) => {
  const n = typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null;
  return n !== null && n >= min && n <= max ? n : null;
};
export const carIdOf = (v: unknown) => intIn(v, 0, 1_000_000);
/** Counts laps per car in file order: the n-th lap a car completed. */
export function lapCounter() {
  const counts = new Map<number | null, number>();
  return (carId: number | null) => {
    const n = (counts.get(carId) ?? 0) + 1;
    counts.set(carId, n);
    return n;
  };
}
/**
 * What tells one session from another when the file has no wall-clock start: the server's
 * clock when the first lap began (AC's Timestamps), the number of laps, and the finishing order
 * with each driver's totals. Hashed with the session's names into the session key.
 */
export function sessionKeyOf(parts: unknown[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
export const resultsPrint = (results: ParsedResult[]) =>
  results.map((r) => [r.carId, r.guid, r.name, r.carKey, r.bestLapMs, r.totalMs, r.laps]);

/** The rig API's bounds, so a file cannot store what a rig could not send. */
export const MAX_CUTS = 1000;
export const MAX_BALLAST_KG = 1000;
export const MAX_SECTOR_MS = 3_600_000;
export const MAX_LAP_COUNT = 100_000;
/** A lap's time into the session: a week is more than any session runs. */
export const MAX_SESSION_MS = 7 * 24 * 3_600_000;
export const sectors = (v: unknown) => {
  const list = Array.isArray(v) ? v.map((x) => intIn(x, 0, MAX_SECTOR_MS)) : [];
  return list.length <= 10 && list.every((x) => x !== null) ? (list as number[]) : [];
};

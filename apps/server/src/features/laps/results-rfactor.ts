import { XMLParser } from 'fast-xml-parser';
import {
  MAX_LAP_COUNT,
  MAX_SECTOR_MS,
  MAX_SESSION_MS,
  ResultsFileError,
  resultsPrint,
  sessionKeyOf,
  text,
  timeOrNull,
  type ParsedLap,
  type ParsedResult,
  type ParsedSession,
} from './results-common';

/** rFactor 2 and Le Mans Ultimate write the same results XML; the file does not say which. */
export type RfactorSim = 'rf2' | 'lmu';

/** The file's own session elements: `Practice1`, `Qualify`, `Warmup`, `Race`, `Race2`, … */
const SESSION_ELEMENT = /^(Practice|Qualify|Warmup|WarmUp|TestDay|Race)\d*$/;
const kindOf = (element: string): ParsedSession['kind'] =>
  element.startsWith('Race') ? 'RACE' : element.startsWith('Qualify') ? 'QUALIFY' : 'PRACTICE';

/**
 * The DOCTYPE is dropped before parsing: rFactor declares one entity it never uses, and a file
 * of declared entities is how an XML bomb grows 10 MB into gigabytes.
 */
const DOCTYPE = /<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/i;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => name === 'Driver' || name === 'Lap' || name === 'Swap',
});

/**
 * rFactor writes `encoding="utf-8"` and then names in the Windows code page ("Gérard" as one
 * byte é): bytes that are not UTF-8 are read as Latin-1, so the name survives.
 */
function decode(bytes: Buffer): string {
  const body =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return body.toString('latin1');
  }
}

/** Seconds as rFactor writes them (`122.0663`; `--.----` is no time) → milliseconds or null. */
const msOf = (v: unknown) => {
  const s = typeof v === 'string' ? v.trim() : '';
  return /^\d+(\.\d+)?$/.test(s) ? timeOrNull(Math.round(Number(s) * 1000)) : null;
};
/** A time into the session in seconds (`et`, from 0) → milliseconds, or null. */
const clockOf = (v: unknown) => {
  const s = typeof v === 'string' ? v.trim() : '';
  const ms = /^\d+(\.\d+)?$/.test(s) ? Math.round(Number(s) * 1000) : null;
  return ms !== null && ms <= MAX_SESSION_MS ? ms : null;
};
const textOf = (v: unknown) =>
  text(v && typeof v === 'object' ? (v as Record<string, unknown>)['#text'] : v);
const countOf = (v: unknown) => {
  const n = Number(textOf(v));
  return Number.isInteger(n) && n >= 0 && n <= MAX_LAP_COUNT ? n : null;
};
/** The Steam id a newer file gives a driver (`<SteamID>`), whatever its spelling. */
const steamIdOf = (driver: Record<string, unknown>) => {
  const key = Object.keys(driver).find((k) => /^steam_?id(64)?$/i.test(k));
  const id = key ? textOf(driver[key]) : '';
  return /^\d{1,20}$/.test(id) && !/^0+$/.test(id) ? id : '';
};

/** XML whose root, within its first lines (after the declaration, a DOCTYPE, comments), is
 *  `rFactorXML`. */
export function isRfactorXml(decoded: string): boolean {
  const head = decoded.slice(0, 4000);
  return /^\s*</.test(head) && /<rFactorXML[\s>]/.test(head);
}

export function parseRfactor(bytes: Buffer, sim: RfactorSim): ParsedSession[] {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(decode(bytes).replace(DOCTYPE, '')) as Record<string, unknown>;
  } catch {
    throw new ResultsFileError(
      'This file is not valid XML. Upload the results file the sim wrote, unchanged.',
    );
  }
  const root = (doc.rFactorXML as Record<string, unknown> | undefined)?.RaceResults;
  if (!root || typeof root !== 'object')
    throw new ResultsFileError('This is not an rFactor 2 / Le Mans Ultimate results file.');
  const r = root as Record<string, unknown>;
  const trackKey = textOf(r.TrackVenue);
  if (!trackKey) throw new ResultsFileError('The results file has no track name.');
  const course = textOf(r.TrackCourse);
  const layout = course === trackKey ? '' : course;
  const serverName = textOf(r.ServerName);
  const sessions = Object.keys(r)
    .filter((k) => SESSION_ELEMENT.test(k) && r[k] && typeof r[k] === 'object')
    .map((element) => {
      const s = r[element] as Record<string, unknown>;
      const drivers = (Array.isArray(s.Driver) ? s.Driver : []) as Record<string, unknown>[];
      const laps: ParsedLap[] = [];
      const results: (ParsedResult & { order: number })[] = [];
      drivers.forEach((d, i) => {
        const name = textOf(d.Name);
        const guid = steamIdOf(d);
        const carKey = textOf(d.CarType) || textOf(d.VehName);
        if (!carKey) return;
        // A driver swap: laps startLap..endLap were driven by the name the swap gives.
        const swaps = (Array.isArray(d.Swap) ? d.Swap : []).map((w) => {
          const o = (w ?? {}) as Record<string, unknown>;
          return { from: Number(o['@startLap']), to: Number(o['@endLap']), name: textOf(o) };
        });
        let carLap = 0;
        for (const raw of Array.isArray(d.Lap) ? d.Lap : []) {
          carLap += 1;
          const l = (raw ?? {}) as Record<string, unknown>;
          const lapMs = msOf(l['#text']);
          if (lapMs === null) continue;
          const num = Number(l['@num']);
          const by = swaps.find((w) => w.name && num >= w.from && num <= w.to)?.name ?? name;
          const sectorsMs = ['@s1', '@s2', '@s3'].map((k) => msOf(l[k]));
          const startMs = clockOf(l['@et']);
          const atMs = startMs === null ? null : startMs + lapMs;
          laps.push({
            guid: by === name ? guid : '',
            name: by,
            carKey,
            lapMs,
            sectorsMs: sectorsMs.every((x) => x !== null && x <= MAX_SECTOR_MS)
              ? (sectorsMs as number[])
              : [],
            cuts: 0,
            ballastKg: null,
            // rFactor writes a lap it did not count with no time (`--.----`): the laps with a
            // time are the ones it counted.
            valid: true,
            atMs: atMs !== null && atMs <= MAX_SESSION_MS ? atMs : null,
            carId: null,
            carLap,
          });
        }
        if (!name) return;
        const position = countOf(d.Position);
        results.push({
          order: position !== null && position > 0 ? position : Number.MAX_SAFE_INTEGER - i,
          position: 0,
          guid,
          name,
          team: textOf(d.TeamName),
          carKey,
          carId: null,
          bestLapMs: msOf(textOf(d.BestLapTime)),
          totalMs: msOf(textOf(d.FinishTime)),
          laps: countOf(d.Laps) ?? 0,
        });
      });
      const kind = kindOf(element);
      // Positions as the file gives them, except where they contradict the file itself (a
      // retired car classified ahead of one that did more laps, two cars at one place): a
      // race is ordered by laps done, then the file's order; a qualifying by best lap.
      const byBest = (a: ParsedResult, b: ParsedResult) =>
        (a.bestLapMs ?? Infinity) - (b.bestLapMs ?? Infinity);
      results.sort((a, b) =>
        kind === 'RACE' ? b.laps - a.laps || a.order - b.order : byBest(a, b) || a.order - b.order,
      );
      const ordered = results.map(({ order: _order, ...x }, i) => ({ ...x, position: i + 1 }));
      return {
        sim,
        trackKey,
        layout,
        kind,
        serverName,
        sessionKey: sessionKeyOf([
          sim,
          serverName,
          trackKey,
          layout,
          element,
          textOf(s.DateTime) || textOf(r.DateTime),
          laps.length,
          resultsPrint(ordered),
        ]),
        laps,
        results: ordered,
      } satisfies ParsedSession;
    });
  if (sessions.length === 0)
    throw new ResultsFileError('The results file holds no session (practice, qualifying or race).');
  return sessions;
}

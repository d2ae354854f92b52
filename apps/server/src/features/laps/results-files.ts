import {
  carIdOf,
  int,
  intIn,
  lapCounter,
  MAX_BALLAST_KG,
  MAX_CUTS,
  MAX_LAP_COUNT,
  MAX_SESSION_MS,
  ResultsFileError,
  resultsPrint,
  sectors,
  sessionKeyOf,
  text,
  timeOrNull,
  type ParsedLap,
  type ParsedResult,
  type ParsedSession,
} from './results-common';

import { isRfactorXml, parseRfactor, type RfactorSim } from './results-rfactor';
import { isRaceroom, parseRaceroom } from './results-raceroom';

export { ResultsFileError, type ParsedLap, type ParsedResult, type ParsedSession };
/** UTF-8 (with or without BOM) or UTF-16LE (ACC writes it without a BOM). */
export function decodeResultsFile(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return bytes.subarray(2).toString('utf16le');
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return bytes.subarray(3).toString('utf8');
  // ASCII text in UTF-16LE has a zero byte after every character.
  const sample = bytes.subarray(0, 64);
  const oddZeros = [...sample].filter((b, i) => i % 2 === 1 && b === 0).length;
  if (sample.length >= 4 && oddZeros >= sample.length / 4) return bytes.toString('utf16le');
  return bytes.toString('utf8');
}

/**
 * Every session a results file holds (AC, ACC and rFactor files hold one, a RaceRoom server's
 * its whole event). Decoded and parsed once; the text is dropped as soon as the parser is done
 * with it, and each lap's raw object as soon as it is read, so a 10 MB file never has its laps
 * in three forms. `xmlSim`: which of rFactor 2 and Le Mans Ultimate wrote an rFactor XML file
 * (the file does not say).
 */
export function parseResultsFile(
  bytes: Buffer,
  options: { xmlSim?: RfactorSim } = {},
): ParsedSession[] {
  const decoded = decodeResultsFile(bytes);
  if (isRfactorXml(decoded)) return parseRfactor(bytes, options.xmlSim ?? 'rf2');
  let data: unknown;
  try {
    data = JSON.parse(decoded);
  } catch {
    throw new ResultsFileError(
      'This file is not valid JSON or rFactor XML. Upload the results file the sim server wrote, unchanged.',
    );
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new ResultsFileError('This file is not a results file: it holds no results object.');
  const d = data as Record<string, unknown>;
  if ('TrackName' in d && Array.isArray(d.Laps)) return [parseAc(d)];
  if ('trackName' in d && d.sessionResult && typeof d.sessionResult === 'object')
    return [parseAcc(d)];
  if (isRaceroom(d)) {
    if (!text(d.Track)) throw new ResultsFileError('The results file has no track name.');
    const sessions = parseRaceroom(d);
    if (sessions.length === 0)
      throw new ResultsFileError(
        'The results file holds no session (practice, qualifying or race).',
      );
    return sessions;
  }
  throw new ResultsFileError(
    'This is not an Assetto Corsa, ACC, rFactor 2 / Le Mans Ultimate or RaceRoom results file (no track name and laps found).',
  );
}

const AC_KINDS: Record<string, ParsedSession['kind']> = {
  RACE: 'RACE',
  QUALIFY: 'QUALIFY',
  PRACTICE: 'PRACTICE',
};

function parseAc(d: Record<string, unknown>): ParsedSession {
  const trackKey = text(d.TrackName);
  if (!trackKey) throw new ResultsFileError('The results file has no track name.');
  const rawLaps = d.Laps as unknown[];
  const nextLap = lapCounter();
  let firstStart: number | null = null;
  const laps = rawLaps.flatMap((raw, i): ParsedLap[] => {
    // The parsed lap is all that is kept: the file's own object can go as soon as it is read.
    rawLaps[i] = null;
    if (!raw || typeof raw !== 'object') return [];
    const l = raw as Record<string, unknown>;
    const carId = carIdOf(l.CarId);
    // Counted before any lap is dropped: acServer sent a LAP_COMPLETED for each of them.
    const carLap = nextLap(carId);
    const lapMs = timeOrNull(l.LapTime);
    const atMs = intIn(l.Timestamp, 0, MAX_SESSION_MS);
    if (atMs !== null && lapMs !== null && (firstStart === null || atMs - lapMs < firstStart))
      firstStart = atMs - lapMs;
    const carKey = text(l.CarModel);
    if (lapMs === null || !carKey) return [];
    const cuts = Math.min(MAX_CUTS, Math.max(0, int(l.Cuts)));
    return [
      {
        guid: text(l.DriverGuid),
        name: text(l.DriverName),
        carKey,
        lapMs,
        sectorsMs: sectors(l.Sectors),
        cuts,
        ballastKg: intIn(l.BallastKG, 0, MAX_BALLAST_KG),
        valid: cuts === 0,
        atMs,
        carId,
        carLap,
      },
    ];
  });
  const lapsOf = new Map<string, number>();
  for (const l of laps) {
    const driver = JSON.stringify([l.guid, l.name]);
    lapsOf.set(driver, (lapsOf.get(driver) ?? 0) + 1);
  }
  const results = (Array.isArray(d.Result) ? d.Result : []).flatMap((raw, i): ParsedResult[] => {
    if (!raw || typeof raw !== 'object') return [];
    const r = raw as Record<string, unknown>;
    const name = text(r.DriverName);
    const carKey = text(r.CarModel);
    if (!name || !carKey) return [];
    const guid = text(r.DriverGuid);
    return [
      {
        position: i + 1,
        guid,
        name,
        team: '',
        carKey,
        carId: carIdOf(r.CarId),
        bestLapMs: timeOrNull(r.BestLap),
        totalMs: timeOrNull(r.TotalTime),
        laps: lapsOf.get(JSON.stringify([guid, name])) ?? 0,
      },
    ];
  });
  const layout = text(d.TrackConfig);
  const type = text(d.Type).toUpperCase();
  const serverName = text(d.ServerName);
  return {
    sim: 'ac',
    trackKey,
    layout,
    kind: AC_KINDS[type] ?? 'PRACTICE',
    serverName,
    sessionKey: sessionKeyOf([
      'ac',
      serverName,
      trackKey,
      layout,
      type,
      text(d.Date) || firstStart,
      laps.length,
      resultsPrint(results),
    ]),
    laps,
    results,
  };
}

/**
 * ACC's session type: "FP", "Q", "R", numbered in a weekend of several ("Q1", "Q2", "R1",
 * "R2"), or in some versions the broadcasting SDK's RaceSessionType number (0 practice,
 * 4 qualifying, 9 superpole, 10 race). Anything else is practice: it scores nothing.
 */
export function accSessionKind(type: unknown): ParsedSession['kind'] {
  if (typeof type === 'number')
    return type === 10 ? 'RACE' : type === 4 || type === 9 ? 'QUALIFY' : 'PRACTICE';
  const t = text(type).toUpperCase();
  if (/^\d+$/.test(t)) return accSessionKind(Number(t));
  if (/^R\d*$/.test(t)) return 'RACE';
  if (/^Q\d*$/.test(t)) return 'QUALIFY';
  return 'PRACTICE';
}

/** ACC writes a Steam player as `S` and the Steam64 id; racers register the bare id. */
export const accPlayerId = (v: unknown) => {
  const id = text(v);
  return /^S\d{17}$/.test(id) ? id.slice(1) : id;
};

/** ACC's car model numbers (its broadcasting documentation), as content keys and names. */
export const ACC_CARS: Record<number, { key: string; name: string }> = {
  0: { key: 'porsche_991_gt3_r', name: 'Porsche 991 GT3 R' },
  1: { key: 'mercedes_amg_gt3', name: 'Mercedes-AMG GT3' },
  2: { key: 'ferrari_488_gt3', name: 'Ferrari 488 GT3' },
  3: { key: 'audi_r8_lms', name: 'Audi R8 LMS' },
  4: { key: 'lamborghini_huracan_gt3', name: 'Lamborghini Huracán GT3' },
  5: { key: 'mclaren_650s_gt3', name: 'McLaren 650S GT3' },
  6: { key: 'nissan_gt_r_gt3_2018', name: 'Nissan GT-R Nismo GT3 2018' },
  7: { key: 'bmw_m6_gt3', name: 'BMW M6 GT3' },
  8: { key: 'bentley_continental_gt3_2018', name: 'Bentley Continental GT3 2018' },
  12: { key: 'amr_v12_vantage_gt3', name: 'Aston Martin V12 Vantage GT3' },
  15: { key: 'lexus_rc_f_gt3', name: 'Lexus RC F GT3' },
  16: { key: 'lamborghini_huracan_gt3_evo', name: 'Lamborghini Huracán GT3 Evo' },
  17: { key: 'honda_nsx_gt3', name: 'Honda NSX GT3' },
  19: { key: 'audi_r8_lms_evo', name: 'Audi R8 LMS Evo' },
  20: { key: 'amr_v8_vantage_gt3', name: 'Aston Martin V8 Vantage GT3' },
  21: { key: 'honda_nsx_gt3_evo', name: 'Honda NSX GT3 Evo' },
  22: { key: 'mclaren_720s_gt3', name: 'McLaren 720S GT3' },
  23: { key: 'porsche_991ii_gt3_r', name: 'Porsche 991 II GT3 R' },
  24: { key: 'ferrari_488_gt3_evo', name: 'Ferrari 488 GT3 Evo' },
  25: { key: 'mercedes_amg_gt3_evo', name: 'Mercedes-AMG GT3 Evo' },
};
export const accCarKey = (model: number) => ACC_CARS[model]?.key ?? `acc_model_${model}`;

type AccDriver = { firstName?: unknown; lastName?: unknown; playerId?: unknown };
const accName = (driver: AccDriver | undefined) =>
  text(`${text(driver?.firstName)} ${text(driver?.lastName)}`);

function parseAcc(d: Record<string, unknown>): ParsedSession {
  const trackKey = text(d.trackName);
  if (!trackKey) throw new ResultsFileError('The results file has no track name.');
  const session = d.sessionResult as Record<string, unknown>;
  const lines = Array.isArray(session.leaderBoardLines) ? session.leaderBoardLines : [];
  type Entry = { carKey: string; team: string; drivers: AccDriver[] };
  const cars = new Map<number, Entry>();
  const results: ParsedResult[] = [];
  lines.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const line = raw as Record<string, unknown>;
    const car = (line.car ?? {}) as Record<string, unknown>;
    const drivers = (Array.isArray(car.drivers) ? car.drivers : []) as AccDriver[];
    const entry = { carKey: accCarKey(int(car.carModel)), team: text(car.teamName), drivers };
    const carId = carIdOf(car.carId);
    cars.set(int(car.carId), entry);
    const current = (line.currentDriver ?? drivers[0]) as AccDriver | undefined;
    const timing = (line.timing ?? {}) as Record<string, unknown>;
    const name = accName(current);
    if (!name) return;
    results.push({
      position: i + 1,
      guid: accPlayerId(current?.playerId),
      name,
      team: entry.team,
      carKey: entry.carKey,
      carId,
      bestLapMs: timeOrNull(timing.bestLap),
      totalMs: timeOrNull(timing.totalTime),
      laps: intIn(timing.lapCount, 0, MAX_LAP_COUNT) ?? 0,
    });
  });
  let clock = 0;
  const nextLap = lapCounter();
  const rawLaps = Array.isArray(d.laps) ? (d.laps as unknown[]) : [];
  const laps = rawLaps.flatMap((raw, i): ParsedLap[] => {
    rawLaps[i] = null;
    if (!raw || typeof raw !== 'object') return [];
    const l = raw as Record<string, unknown>;
    const carId = carIdOf(l.carId);
    const carLap = nextLap(carId);
    const entry = cars.get(int(l.carId));
    const lapMs = timeOrNull(l.laptime);
    if (!entry || lapMs === null) return [];
    const driver = entry.drivers[int(l.driverIndex)];
    clock += lapMs;
    return [
      {
        guid: accPlayerId(driver?.playerId),
        name: accName(driver),
        carKey: entry.carKey,
        lapMs,
        sectorsMs: sectors(l.splits),
        cuts: l.isValidForBest === false ? 1 : 0,
        ballastKg: null,
        valid: l.isValidForBest !== false,
        atMs: clock,
        carId,
        carLap,
      },
    ];
  });
  const serverName = text(d.serverName);
  return {
    sim: 'acc',
    trackKey,
    layout: '',
    kind: accSessionKind(d.sessionType),
    serverName,
    // ACC files carry no start: the weekend and session indexes and the results stand for it.
    sessionKey: sessionKeyOf([
      'acc',
      serverName,
      trackKey,
      String(d.sessionType ?? ''),
      int(d.raceWeekendIndex),
      int(d.sessionIndex),
      text(d.metaData),
      laps.length,
      resultsPrint(results),
    ]),
    laps,
    results,
  };
}

/** A readable name for content nobody has named yet: `ks_monza`, `full course` → "Monza (Full Course)". */
export function readableName(key: string, layout = ''): string {
  const words = (s: string) =>
    s
      .replace(/^(ks|acc)_/i, '')
      .split(/[_\s-]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join(' ');
  return layout ? `${words(key)} (${words(layout)})` : words(key);
}

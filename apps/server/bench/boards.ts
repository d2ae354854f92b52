// Leaderboard benchmarks for `npm run bench` (issue 9): a TIME board at 1 M and 5 M laps against
// a bare route returning the same JSON, and lap ingestion with personal-best upkeep.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../src/db/client';
import { children, here, load, tsx, waitFor } from './harness';

export async function boardBenchmarks(opts: {
  database: Database;
  appBase: string;
  tmp: string;
  seatId: number;
  /** First port for the bare board routes (two are used). */
  port?: number;
}) {
  const { pool } = opts.database;
  const q = (text: string, params: unknown[] = []) => pool.query(text, params);
  // Catalogue: one track, five cars in one group, 20 000 racers.
  const track = (
    await q(
      `insert into tracks (sim, key, layout, name) values ('ac','bench_monza','','Bench Monza') returning id`,
    )
  ).rows[0].id;
  const group = (await q(`insert into car_groups (name) values ('Bench GT3') returning id`)).rows[0]
    .id;
  const cars = (
    await q(
      `insert into cars (sim, key, name) select 'ac', 'bench_car_' || g, 'Bench Car ' || g from generate_series(1,5) g returning id`,
    )
  ).rows.map((r) => r.id as number);
  await q(`insert into car_group_members (car_id, group_id) select unnest($1::int[]), $2`, [
    cars,
    group,
  ]);
  const firstUser = (
    await q(`insert into users (username, email, password_hash, first_name, last_name, racer_name, flag_code)
    select 'bench' || g || '@example.com', 'bench' || g || '@example.com', 'x', 'Bench', 'Racer ' || g, 'Racer ' || g, 'us'
    from generate_series(1, 20000) g returning id`)
  ).rows[0].id as number;

  const boardAll = (
    await q(
      `insert into boards (name, calculation, track_id, group_id) values ('Bench all time','TIME',$1,$2) returning id`,
      [track, group],
    )
  ).rows[0].id;
  const board30 = (
    await q(
      `insert into boards (name, calculation, track_id, group_id, time_frame_days) values ('Bench 30 days','TIME',$1,$2,30) returning id`,
      [track, group],
    )
  ).rows[0].id;

  let total = 0;
  const addLaps = async (n: number) => {
    const started = performance.now();
    await q(
      `insert into laps (user_id, track_id, car_id, sim, lap_ms, recorded_at, source_key, valid)
       select $1 + (g % 20000), $2, ($3::int[])[1 + (g % 5)], 'ac', 100000 + (hashint4(g) & 65535),
              now() - make_interval(secs => (g % 31536000)), 'bench:' || ($4 + g), (g % 7) <> 0
       from generate_series(1, $5) g`,
      [firstUser, track, cars, total, n],
    );
    total += n;
    await q(
      `insert into personal_bests (user_id, track_id, car_id, lap_id, lap_ms, recorded_at)
      select distinct on (user_id, track_id, car_id) user_id, track_id, car_id, id, lap_ms, recorded_at
      from laps where valid and user_id is not null and track_id = $1
      order by user_id, track_id, car_id, lap_ms, recorded_at, id
      on conflict (user_id, track_id, car_id) do update set lap_id = excluded.lap_id, lap_ms = excluded.lap_ms, recorded_at = excluded.recorded_at`,
      [track],
    );
    await q('analyze');
    return ((performance.now() - started) / 1000).toFixed(0);
  };

  const lines: string[] = [];
  let port = opts.port ?? 4330;
  // BENCH_BOARD_LAPS=1000000 (a comma list) measures only those lap counts, for quicker runs.
  const targets = (process.env.BENCH_BOARD_LAPS ?? '1000000,5000000')
    .split(',')
    .map((t) => Number(t.trim()));
  for (const target of targets) {
    const secs = await addLaps(target - total);
    lines.push(`${(total / 1e6).toFixed(0)} M laps generated in ${secs} s`);
    for (const [label, id] of [
      ['all-time (personal bests)', boardAll],
      ['last 30 days (laps)', board30],
    ] as const) {
      const url = `${opts.appBase}/api/boards/${id}/results?count=15`;
      const json = await (await fetch(url)).text();
      const file = path.join(opts.tmp, `board-${id}-${target}.json`);
      fs.writeFileSync(file, json);
      port += 1;
      const bare = spawn(tsx, [path.join(here, 'bare-json.ts')], {
        env: { ...process.env, PORT: String(port), JSON_FILE: file },
        stdio: 'ignore',
      });
      children.push(bare);
      await waitFor(`http://127.0.0.1:${port}/json`);
      const b = await load(`bare GET (${json.length} B JSON)`, {
        url: `http://127.0.0.1:${port}/json`,
      });
      const a = await load(`GET /boards/{id}/results ${label}`, { url });
      bare.kill('SIGTERM');
      lines.push(
        `${(total / 1e6).toFixed(0)} M laps, ${label}: ${a.rps.toFixed(0)} req/s (${((a.rps / b.rps) * 100).toFixed(0)}% of bare ${b.rps.toFixed(0)}), p99 ${a.p99} ms vs ${b.p99} ms, non-2xx ${a.errors}`,
      );
    }
  }

  // BENCH_BOARD_INGEST=false skips the ingestion run (while iterating on the read route).
  if (process.env.BENCH_BOARD_INGEST === 'false') return lines;
  // Ingestion: rigs sending laps, each stored with its owner and personal best in one transaction.
  const key = `rig_bench_${Date.now()}`;
  const crypto = await import('node:crypto');
  await q(`insert into rig_keys (calendar_id, key_hash) values ($1, $2)`, [
    opts.seatId,
    crypto.createHash('sha256').update(key).digest('hex'),
  ]);
  let n = 0;
  const ingest = await load('POST /laps (rig, personal best kept)', {
    url: opts.appBase,
    requests: [
      {
        method: 'POST',
        path: '/api/laps',
        headers: { authorization: `Rig ${key}`, 'content-type': 'application/json' },
        setupRequest: (r) => ({
          ...r,
          body: JSON.stringify({
            client_lap_id: `bench-${n++}`,
            sim: 'ac',
            track: 'bench_monza',
            car: 'bench_car_1',
            lap_ms: 100000 + (n % 5000),
            driver_guid: '',
            recorded_at: new Date().toISOString(),
          }),
        }),
      },
    ],
  });
  lines.push(
    `lap ingestion: ${ingest.rps.toFixed(0)} laps/s, p99 ${ingest.p99} ms, non-2xx ${ingest.errors}`,
  );
  return lines;
}

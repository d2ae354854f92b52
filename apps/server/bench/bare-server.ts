// The physical-limit baselines for `npm run bench`: a bare Fastify (no auth, no validation,
// no serialisation schema) that returns precomputed JSON, and one raw INSERT per request.
import Fastify from 'fastify';
import fs from 'node:fs';
import pg from 'pg';

const port = Number(process.env.PORT);
const avail = fs.readFileSync(process.env.AVAIL_JSON!, 'utf8');
const parallel = fs.readFileSync(process.env.PARALLEL_JSON!, 'utf8');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

const app = Fastify({ logger: false });
app.get('/avail', async (_req, reply) => reply.type('application/json').send(avail));
app.get('/parallel', async (_req, reply) => reply.type('application/json').send(parallel));
app.post('/insert', async (req, reply) => {
  const body = req.body as { calendar: number; slot: string };
  await pool.query('insert into bench_inserts (calendar, slot) values ($1, $2)', [
    body.calendar,
    body.slot,
  ]);
  return reply.status(201).send({ ok: true });
});
await app.listen({ port, host: '127.0.0.1' });
console.log('ready');

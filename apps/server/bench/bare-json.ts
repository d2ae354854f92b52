// A bare Fastify that answers one precomputed JSON file at /json: the ceiling a read route is
// measured against (no auth, no validation, no database).
import Fastify from 'fastify';
import fs from 'node:fs';

const body = fs.readFileSync(process.env.JSON_FILE!, 'utf8');
const app = Fastify({ logger: false });
app.get('/json', async (_req, reply) => reply.type('application/json').send(body));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_ACCESS } from '../plugins/route-access';
import { describeAccess } from '../plugins/openapi';
import { createTestApp, type TestApp } from './test-app';

// The API document as buildApp serves it, linted by a third party: Redocly CLI with its
// recommended rules (redocly.yaml at the root). Errors fail the test; decision 0029 lists the
// warnings (none today) and why any may stay.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const run = promisify(execFile);

type Problem = {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
};
type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-permission'?: string;
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Doc;
let problems: Problem[];

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-openapi-'));
  const file = path.join(dir, 'openapi.json');
  await fs.writeFile(file, JSON.stringify(doc));
  // Exit status 1 means "problems found": the JSON report is read either way.
  const { stdout } = await run(
    path.join(root, 'node_modules/.bin/redocly'),
    [
      'lint',
      file,
      '--config',
      path.join(root, 'redocly.yaml'),
      '--format',
      'json',
      '--max-problems',
      '100000',
    ],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  problems = (JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: Problem[] }).problems;
  await fs.rm(dir, { recursive: true, force: true });
}, 120_000);
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([verb, op]) => ({ key: `${verb.toUpperCase()} ${p}`, op })),
  );
const schemaRef = (op: Operation, status: string) =>
  op.responses[status]?.content?.['application/json']?.schema.$ref;

describe('the API document', () => {
  it('has no errors under Redocly CLI’s recommended rules', () => {
    const show = (p: Problem) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`;
    const warnings = problems.filter((p) => p.severity !== 'error');
    if (warnings.length)
      console.log(`redocly: ${warnings.length} warnings\n${warnings.map(show).join('\n')}`);
    expect(problems.filter((p) => p.severity === 'error').map(show)).toEqual([]);
  });

  it('gives every operation an id, a summary, a tag, its security and named error answers', () => {
    const ids = new Set<string>();
    for (const { key, op } of operations()) {
      expect(op.operationId, key).toMatch(/^[a-z]+[A-Za-z]*$/);
      expect(ids.has(op.operationId!), `${key}: ${op.operationId} twice`).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary, key).toBeTruthy();
      expect(op.tags?.length, key).toBeGreaterThan(0);
      expect(op.security, key).toBeDefined();
      expect(schemaRef(op, '401'), key).toBe('#/components/schemas/Unauthorized');
      for (const status of ['400', '403', '404'])
        if (op.responses[status])
          expect(schemaRef(op, status), `${key} ${status}`).toMatch(
            /^#\/components\/schemas\/(ValidationErrors|Detail)$/,
          );
    }
  });

  it('states each route’s requirement from the access table', () => {
    for (const [rule, access] of Object.entries(ROUTE_ACCESS)) {
      const [method, url] = rule.split(' ');
      const p = url.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
      const op = doc.paths[p]?.[method.toLowerCase()];
      if (!op) continue; // hidden (the document itself)
      if (rule === 'GET /api/feed.ics') {
        // Its own: a session header or the feed token, for staff who plan.
        expect(op.security).toEqual([{ bearer: [] }, { feedToken: [] }]);
        expect(op['x-permission']).toBe('reservations.change_reservation');
      } else if (access === 'public') expect(op.security, rule).toEqual([]);
      else if (typeof access === 'object' && 'rigOr' in access) {
        expect(op.security, rule).toEqual([{ rigKey: [] }, { bearer: [] }]);
        expect(op['x-permission'], rule).toBe(access.rigOr);
      } else if (access === 'rig') expect(op.security, rule).toEqual([{ rigKey: [] }]);
      else {
        expect(op.security, rule).toEqual([{ bearer: [] }]);
        if (access === 'user') expect(op['x-permission'], rule).toBeUndefined();
        else {
          expect(op['x-permission'], rule).toBe(describeAccess(access));
          expect(schemaRef(op, '403'), rule).toBe('#/components/schemas/Detail');
        }
      }
    }
  });

  it('names shared schemas once, as components', () => {
    const get = doc.paths['/api/reservations/{id}'].get;
    expect(schemaRef(get, '200')).toBe('#/components/schemas/Reservation');
    const list = JSON.stringify(doc.paths['/api/reservations'].get.responses['200']);
    expect(list).toContain('"#/components/schemas/Reservation"');
  });
});

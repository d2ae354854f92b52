import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import * as common from '@paddock/contract/common';
import { loadContractModule } from '@paddock/contract/loader/load-module';
import { ROUTE_ACCESS, type Access } from './route-access';

/**
 * The API document's rules, applied to every route in one place (the swagger `transform`), so a
 * route added anywhere gets them: operationId, security from `ROUTE_ACCESS`, the error answers
 * with named schemas. Shared schemas are named components. See decision 0029.
 */

/**
 * 401: no session, or a code saying why: `token_not_valid` (a bad or expired token, DESIGN §3),
 * `user_not_found` (a valid token of a deleted account), `rig_key_required` and
 * `rig_key_invalid` (a rig's routes without, or with an unknown, rig key).
 */
const unauthorizedBody = z.object({
  detail: z.string(),
  code: z
    .enum(['token_not_valid', 'user_not_found', 'rig_key_required', 'rig_key_invalid'])
    .optional(),
});

const ERROR_IDS = new Map<z.ZodType, string>([
  [common.validationErrorBody, 'ValidationErrors'],
  [common.detailBody, 'Detail'],
  [unauthorizedBody, 'Unauthorized'],
]);

/** Every file of the contract, imported: a file added there is covered without a change here. */
async function contractModules(): Promise<[string, Record<string, unknown>][]> {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@paddock/contract/common'));
  const files = (await fs.readdir(dir))
    .filter((f) => /^[\w-]+\.ts$/.test(f) && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
  return Promise.all(
    files.map(async (f) => [f, await loadContractModule(f)] as [string, Record<string, unknown>]),
  );
}

const pascal = (name: string) =>
  name.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());

let names: Promise<Map<z.ZodType, string>> | null = null;

/** Every object schema the contract exports, by its name as a component (`reservation` → `Reservation`). */
function contractNames(): Promise<Map<z.ZodType, string>> {
  names ??= contractModules().then((modules) => {
    const found = new Map<z.ZodType, string>();
    const used = new Set<string>(ERROR_IDS.values());
    for (const [moduleName, exports] of modules)
      for (const [name, value] of Object.entries(exports)) {
        if (!(value instanceof z.ZodObject) || found.has(value) || ERROR_IDS.has(value)) continue;
        let id = pascal(name);
        if (used.has(id)) id = `${pascal(moduleName)}${id}`;
        used.add(id);
        found.set(value, id);
      }
    return found;
  });
  return names;
}

/** Calls `visit` on a zod schema and every schema inside it (fields, items, options…). */
function walk(schema: unknown, visit: (s: z.ZodType) => void, seen = new Set<unknown>()) {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
  seen.add(schema);
  visit(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  for (const value of Object.values(def)) {
    if (value instanceof z.ZodType) walk(value, visit, seen);
    else if (Array.isArray(value)) for (const v of value) walk(v, visit, seen);
    else if (value && typeof value === 'object' && !(value instanceof RegExp))
      for (const v of Object.values(value)) walk(v, visit, seen);
  }
  if (schema instanceof z.ZodObject)
    for (const v of Object.values(schema.shape)) walk(v, visit, seen);
}

/**
 * onRoute hook: names (in zod's global registry, which fastify-type-provider-zod turns into
 * `$ref`s and `components.schemas`) every contract schema a route answers with, wherever it
 * sits in the answer. Request schemas stay inline: they become parameters and request bodies.
 */
export async function openapiComponentsHook() {
  for (const [schema, id] of ERROR_IDS)
    if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
  const names = await contractNames();
  return (route: { schema?: { response?: Record<string, unknown> } }) => {
    for (const answer of Object.values(route.schema?.response ?? {}))
      walk(answer, (s) => {
        const id = names.get(s);
        if (id && !z.globalRegistry.has(s) && !z.globalRegistry._idmap.has(id))
          z.globalRegistry.add(s, { id });
      });
  };
}

type Doc = { components?: { schemas?: Record<string, unknown> } };

/** The components once, dropping the ones nothing refers to (zod's input-side twins). */
function transformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const doc = jsonSchemaTransformObject(input) as Doc;
  const schemas = doc.components?.schemas ?? {};
  for (;;) {
    const { schemas: _, ...rest } = doc.components ?? {};
    const text = JSON.stringify([{ ...doc, components: rest }, ...Object.values(schemas)]);
    const unused = Object.keys(schemas).filter(
      (id) => !text.includes(`"#/components/schemas/${id}"`),
    );
    if (unused.length === 0) break;
    for (const id of unused) delete schemas[id];
  }
  return doc;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string, description: string) => ({
  description,
  content: { 'application/json': { schema: ref(id) } },
});

const TOKEN_NOT_VALID =
  'A token was sent and is not valid (`code: "token_not_valid"`); anonymous calls need none';

const ERRORS = {
  400: json(
    'ValidationErrors',
    'Field errors: `{"field": ["message"], "non_field_errors": ["message"]}`',
  ),
  401: json(
    'Unauthorized',
    'Not signed in, or the token or rig key is not valid (`code` says which, when it is known)',
  ),
  403: json('Detail', 'Signed in, without the permission this operation needs'),
  404: json('Detail', 'Not found (someone else’s object is not found either)'),
  413: json('Detail', 'The body is larger than this operation takes'),
  414: json('Detail', 'A value in the path is longer than the router takes (200 characters)'),
  415: json('Detail', 'The body’s content type is not one this operation takes'),
  429: json(
    'Detail',
    'Too many attempts (`code: "throttled"`); try again after `Retry-After` seconds',
  ),
};
const PAGE_NOT_FOUND = 'Not found, or `"Invalid page."` for a page past the last one';

/**
 * What a route documents beside its zod schemas, for what no zod schema can validate:
 * `documentBody`, a body the handler reads itself (a file upload, raw bytes), and
 * `documentHeaders`, response headers by status (the renewed session token).
 */
export type DocumentOnly = {
  documentBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  documentHeaders?: Record<
    number,
    Record<string, { type: 'string'; description: string; [key: string]: unknown }>
  >;
};

/** `POST /api/users/:id/update_password` → `postUsersByIdUpdatePassword`. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/?/, '')
    .split(/[/._-]+/)
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by_${part.slice(1)}` : part))
    .flatMap((part) => part.split('_'))
    .map((word) => word[0].toUpperCase() + word.slice(1));
  return method.toLowerCase() + (words.join('') || 'Root');
}

const words = (part: string) => part.replace(/[_.]/g, ' ');
const singular = (part: string) => words(part).replace(/s$/, '');

/**
 * The REST conventions of DESIGN §3 in words, for a route that states no summary of its own:
 * `GET /api/pages` → "List pages", `PATCH /api/pages/:id` → "Edit a page (only the fields sent)".
 */
export function summaryFor(method: string, url: string): string {
  const parts = url
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter(Boolean);
  const last = parts.at(-1) ?? 'API';
  const lastIsParam = last.startsWith(':');
  const owner = [...parts].reverse().find((p, i) => i > 0 && !p.startsWith(':'));
  const thing = lastIsParam ? singular(parts.at(-2) ?? 'object') : words(last);
  const of = !lastIsParam && parts.length > 1 && parts.at(-2)!.startsWith(':') && owner;
  const tail = of ? ` of a ${singular(owner)}` : '';
  switch (method) {
    case 'GET':
      return lastIsParam ? `Read one ${thing}` : `${of ? 'Read the' : 'List'} ${thing}${tail}`;
    case 'POST':
      return lastIsParam || of
        ? `${thing[0].toUpperCase()}${thing.slice(1)}${tail}`
        : `Create a ${singular(last)}`;
    case 'PATCH':
      return `Edit ${lastIsParam ? `a ${thing}` : thing}${tail} (only the fields sent)`;
    case 'PUT':
      return `Edit ${lastIsParam ? `a ${thing}` : thing}${tail} (PUT: the same as PATCH)`;
    case 'DELETE':
      return `Delete ${lastIsParam ? `a ${thing}` : `the ${thing}`}${tail}`;
    default:
      return `${method} ${thing}${tail}`;
  }
}

/** The access rule as the document says it: `reservations.change_reservation`, `allOf:a,b`. */
export function describeAccess(access: Access): string {
  if (typeof access === 'string') return access;
  if ('anyOf' in access) return `anyOf:${access.anyOf.join(',')}`;
  if ('rigOr' in access) return access.rigOr;
  return `allOf:${access.allOf.join(',')}`;
}

function securityFor(access: Access): Record<string, string[]>[] {
  if (access === 'public') return [];
  if (access === 'rig') return [{ rigKey: [] }];
  if (typeof access === 'object' && 'rigOr' in access) return [{ rigKey: [] }, { bearer: [] }];
  return [{ bearer: [] }];
}

function accessNote(access: Access): string | null {
  if (access === 'public') return 'Anonymous.';
  if (access === 'rig') return 'A rig agent, with its rig key (`Authorization: Rig <key>`).';
  if (access === 'user') return 'Any signed-in user (a customer sees only their own objects).';
  if (typeof access === 'object' && 'rigOr' in access)
    return `A rig agent with its rig key, or staff with \`${access.rigOr}\`.`;
  return `Staff with \`${describeAccess(access)}\` (superusers hold every permission).`;
}

type Schema = Record<string, unknown> &
  DocumentOnly & {
    response?: Record<string, Record<string, unknown>>;
    body?: unknown;
    querystring?: { properties?: Record<string, unknown> };
    description?: string;
    security?: { [label: string]: readonly string[] }[];
    tags?: string[];
  };

type TransformInput = Parameters<NonNullable<FastifyDynamicSwaggerOptions['transform']>>[0];

export function openapiTransform(table: Record<string, Access> = ROUTE_ACCESS) {
  return (input: TransformInput) => {
    const out = jsonSchemaTransform(input) as { schema: Schema; url: string };
    const schema = out.schema;
    if (!schema || schema.hide) return out;
    const methods = ([] as string[]).concat(input.route.method).filter((m) => m !== 'HEAD');
    const method = methods[0];
    const access = table[`${method} ${input.url}`] ?? table[`${method} ${input.url}/`];
    const route = (input.schema ?? {}) as Schema;
    schema.operationId ??= operationIdFor(method, input.url);
    schema.summary ??= summaryFor(method, input.url);
    schema.tags ??= [input.url.split('/')[2] || 'api'];
    if (access !== undefined) {
      // A route that states its own security (the feed: session or feed token) is not what the
      // access table's "public" says of it: its own words stand.
      const ownSecurity = schema.security !== undefined;
      schema.security ??= securityFor(access);
      if (access !== 'public' && access !== 'user' && access !== 'rig')
        schema['x-permission'] ??= describeAccess(access);
      const permission = schema['x-permission'];
      const note = !ownSecurity
        ? accessNote(access)
        : permission
          ? `Staff with \`${String(permission)}\`, signed in by any of the means its security lists.`
          : null;
      schema.description = [schema.description, note].filter(Boolean).join('\n\n');
    }
    const responses = (schema.response ??= {});
    const { documentBody, documentHeaders } = schema;
    delete schema.documentBody;
    delete schema.documentHeaders;
    if (documentBody) schema.body = documentBody;
    for (const [status, headers] of Object.entries(documentHeaders ?? {}))
      if (responses[status]) responses[status].headers = headers;
    // Fastify reads a body sent with any method but GET and HEAD, whether or not the route wants
    // one: an empty JSON body is a 400, a large one 413, an unknown type 415.
    const takesBody = method !== 'GET' && method !== 'HEAD';
    const takesInput = Boolean(route.body || route.querystring || route.params || documentBody);
    const paginated = Boolean(schema.querystring?.properties?.page);
    const needsSession = access !== undefined && access !== 'public' && access !== 'rig';
    const needsPermission = needsSession && access !== 'user';
    const throttled = Boolean(
      (input.route.config as { rateLimit?: unknown } | undefined)?.rateLimit,
    );
    const wanted: (keyof typeof ERRORS)[] = [];
    if (takesInput || takesBody || '400' in responses) wanted.push(400);
    if (needsPermission || '403' in responses) wanted.push(403);
    if (input.url.includes(':') || paginated || '404' in responses) wanted.push(404);
    if (input.url.includes(':')) wanted.push(414);
    if (takesBody) wanted.push(413, 415);
    if (throttled) wanted.push(429);
    for (const status of wanted) responses[status] = ERRORS[status];
    if (paginated) responses[404] = { ...ERRORS[404], description: PAGE_NOT_FOUND };
    // Every /api request with a bad token is refused, even where no session is needed.
    responses[401] = needsSession ? ERRORS[401] : { ...ERRORS[401], description: TOKEN_NOT_VALID };
    return out;
  };
}

/** The swagger plugin's options: the document's frame, the transform and named components. */
export function openapiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Paddock API',
        version: '0.1.0',
        description:
          'Booking, membership and race control for sim-racing venues. Conventions: DESIGN §3.',
        license: { name: 'UNLICENSED (private)', identifier: 'LicenseRef-Proprietary' },
      },
      // Relative: the document describes the server that serves it (paths start with /api).
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A session from `POST /api/auth/token`.',
          },
          rigKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'A rig agent: `Rig <key>`, a key from `POST /api/rig_keys`.',
          },
          feedToken: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'A read-only planner feed token from `POST /api/feed_token`.',
          },
        },
      },
    },
    transform: openapiTransform(),
    transformObject: transformObject as FastifyDynamicSwaggerOptions['transformObject'],
  };
}

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * The contract test's checker: every answer a suite gets is held against the API document the
 * app serves (GET /api/openapi.json), by a third-party JSON Schema validator (Ajv, draft 2020-12
 * as OpenAPI 3.1 uses): the status must be documented for the operation, and the body must match
 * the schema documented for that status and content type. Mismatches are collected, one line per
 * operation, status and kind, with the first request that showed it.
 */

type Media = { schema?: Record<string, unknown> };
type Answer = { content?: Record<string, Media>; headers?: Record<string, unknown> };
type Operation = { responses?: Record<string, Answer> };
type Doc = { paths: Record<string, Record<string, Operation>> };

/** Outside the document by design: the document itself and its viewer. */
const UNDOCUMENTED = [/^\/api\/openapi\.json$/, /^\/api\/docs(\/|$)/];

type Template = { path: string; pattern: RegExp; statics: number };

export class ApiContract {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Template[];
  private readonly found = new Map<string, string>();
  /** Answers held against the document. */
  checked = 0;

  constructor(private readonly doc: Doc) {
    // Not strict: the document carries OpenAPI's own words (`example`, `x-…`) beside the schema.
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc as unknown as Record<string, unknown>, 'openapi');
    // The router's choice: a static segment beats a parameter (`/users/me/charges` before `/users/{id}/…`).
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(
          `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]*')}/?$`,
        ),
        statics: path.split('/').filter((part) => part && !part.startsWith('{')).length,
      }))
      .sort((a, b) => b.statics - a.statics);
  }

  /** The document as `app` serves it. */
  static async of(app: FastifyInstance): Promise<ApiContract> {
    const res = await app.inject({ url: '/api/openapi.json' });
    return new ApiContract(res.json());
  }

  /** Holds every answer `app.inject` gives from now on against the document. */
  watch(app: FastifyInstance): this {
    const inject = app.inject.bind(app) as (o: InjectOptions) => Promise<LightMyRequestResponse>;
    const watched = async (options: InjectOptions | string) => {
      const opts = typeof options === 'string' ? { url: options } : options;
      const res = await inject(opts);
      this.check(opts.method ?? 'GET', String(opts.url ?? opts.path ?? '/'), res);
      return res;
    };
    (app as unknown as { inject: typeof watched }).inject = watched;
    return this;
  }

  /** The mismatches found, one per operation, status and kind, each with a request that shows it. */
  get problems(): string[] {
    return [...this.found.entries()].map(([key, example]) => `${key} (e.g. ${example})`);
  }

  /** Holds one answer against the document; a mismatch is recorded, not thrown. */
  check(
    method: string,
    url: string,
    res: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>,
  ): void {
    const pathname = url.split('?')[0];
    if (!pathname.startsWith('/api') || UNDOCUMENTED.some((re) => re.test(pathname))) return;
    // Only the not-found handler answers 405: no operation took the request (`/users/` is
    // `/users` to the router, which has no PATCH, though `{id}` could be read as empty).
    if (res.statusCode === 405) return;
    const verb = method.toLowerCase();
    const example = `${method} ${url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 160)}`;
    // With the trailing slash ignored, `/members/` is both `/members` and `/members/{id}` (empty).
    const matching = this.templates.filter((t) => t.pattern.test(pathname));
    const template = matching.find((t) => this.doc.paths[t.path][verb]) ?? matching[0];
    // A path no route has, or a method the path does not take: nothing to document.
    if (!template || !this.doc.paths[template.path][verb]) {
      if (res.statusCode !== 404 && res.statusCode !== 405 && res.statusCode !== 414)
        this.record(
          `${method} ${pathname}: ${res.statusCode} from an undocumented operation`,
          example,
        );
      return;
    }
    this.checked += 1;
    const op = `${method} ${template.path}`;
    const responses = this.doc.paths[template.path][verb].responses ?? {};
    const status = String(res.statusCode);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return this.record(`${op}: status ${status} is not documented`, example);
    const content = responses[key].content;
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (!content || Object.keys(content).length === 0) {
      if (res.body.length > 0)
        this.record(
          `${op} ${status}: a ${type || 'typeless'} body where none is documented`,
          example,
        );
      return;
    }
    if (!type && res.body.length === 0) return;
    const documented = Object.keys(content).find(
      (t) =>
        t.toLowerCase() === type ||
        t === '*/*' ||
        (t.endsWith('/*') && type.startsWith(t.slice(0, -1))),
    );
    if (!documented)
      return this.record(
        `${op} ${status}: content type ${type || '(none)'} is not documented (${Object.keys(content).join(', ')})`,
        example,
      );
    if (!/[/+]json$/.test(type)) return;
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return this.record(`${op} ${status}: the body is not JSON`, example);
    }
    const validate = this.validator(template.path, verb, key, documented);
    if (validate && !validate(body)) {
      const error = validate.errors?.[0];
      this.record(
        `${op} ${status}: body does not match the schema (${error?.instancePath || '/'} ${error?.message ?? ''})`,
        example,
      );
    }
  }

  private validator(path: string, verb: string, status: string, type: string) {
    const pointer = ['paths', path, verb, 'responses', status, 'content', type, 'schema']
      .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    const id = `openapi#/${pointer}`;
    let validate = this.validators.get(id);
    if (!validate) {
      const found = this.ajv.getSchema(id);
      if (!found) return null;
      validate = found;
      this.validators.set(id, validate);
    }
    return validate;
  }

  private record(problem: string, example: string) {
    if (!this.found.has(problem)) this.found.set(problem, example);
  }
}

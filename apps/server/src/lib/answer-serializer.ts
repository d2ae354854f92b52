import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** The JSON text of a value as the contract says it, or undefined when it does not (zod tells). */
type Write = (value: unknown) => string | undefined;

type Def = {
  type: string;
  coerce?: boolean;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** `z.number().int()`: zod 4's one check for it is the safe-integer format. */
function isIntOnly(checks: Def['checks']): boolean {
  return (
    checks?.length === 1 &&
    checks[0]._zod.def.check === 'number_format' &&
    checks[0]._zod.def.format === 'safeint'
  );
}

/**
 * A writer for the plain shapes answers use (objects that strip unknown keys, strings, numbers,
 * integers, booleans, nullable, arrays), each checked as zod checks it; null for anything else
 * (a refinement, a transform, an optional key, a length check …), which zod then serialises.
 */
function writerFor(schema: z.ZodType): Write | null {
  const def = defOf(schema);
  if (def.coerce) return null;
  const checked = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case 'string':
      return checked ? null : (v) => (typeof v === 'string' ? JSON.stringify(v) : undefined);
    case 'boolean':
      return checked ? null : (v) => (v === true ? 'true' : v === false ? 'false' : undefined);
    case 'number':
      if (isIntOnly(def.checks)) return (v) => (Number.isSafeInteger(v) ? String(v) : undefined);
      return checked
        ? null
        : (v) => (typeof v === 'number' && Number.isFinite(v) ? JSON.stringify(v) : undefined);
    case 'nullable': {
      const inner = def.innerType && writerFor(def.innerType);
      return inner ? (v) => (v === null ? 'null' : inner(v)) : null;
    }
    case 'array': {
      const element = !checked && def.element && writerFor(def.element);
      if (!element) return null;
      return (v) => {
        if (!Array.isArray(v)) return undefined;
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          const item = element(v[i]);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
        }
        return `${out}]`;
      };
    }
    case 'object': {
      if (checked || def.catchall !== undefined || !def.shape) return null;
      const fields: { prefix: string; key: string; write: Write }[] = [];
      for (const [key, field] of Object.entries(def.shape)) {
        const write = writerFor(field);
        if (!write) return null;
        fields.push({ prefix: `${JSON.stringify(key)}:`, key, write });
      }
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
        const record = v as Record<string, unknown>;
        let out = '{';
        for (let i = 0; i < fields.length; i++) {
          const f = fields[i];
          const value = f.write(record[f.key]);
          if (value === undefined) return undefined;
          out += i === 0 ? f.prefix + value : `,${f.prefix}${value}`;
        }
        return `${out}}`;
      };
    }
    default:
      return null;
  }
}

/** The zod schema fastify-type-provider-zod's compiler would use for this answer. */
function answerSchema(schema: unknown): z.ZodType | null {
  if (typeof schema !== 'object' || schema === null) return null;
  if ('_zod' in schema) return schema as z.ZodType;
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && '_zod' in properties
    ? (properties as z.ZodType)
    : null;
}

/** The compiled writer for an answer's schema, or null when zod must write it. */
export function answerWriter(routeSchema: unknown): Write | null {
  const schema = answerSchema(routeSchema);
  return schema && writerFor(schema);
}

/**
 * fastify-type-provider-zod's serializer (zod checks the answer, then JSON.stringify) compiled
 * ahead for plain answer shapes: the same text, keys in the contract's order, unknown keys left
 * out, and each value checked as zod checks it. An answer the writer cannot vouch for goes to
 * zod's serializer, which writes it or refuses it exactly as before (answer-serializer.test.ts).
 */
export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const slow = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
  const fast = answerWriter(route.schema);
  if (!fast) return slow;
  return (data) => fast(data) ?? slow(data);
};

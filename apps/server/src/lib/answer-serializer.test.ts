import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { reservation } from '@paddock/contract/reservations';
import { detailBody } from '@paddock/contract/common';
import { answerSerializerCompiler, answerWriter } from './answer-serializer';

const route = (schema: z.ZodType) => ({ schema, method: 'POST', url: '/x', httpStatus: '201' });
const both = (schema: z.ZodType) => [
  answerSerializerCompiler(route(schema)),
  serializerCompiler(route(schema) as Parameters<typeof serializerCompiler>[0]),
];
/** What zod's serializer does with `data`: its text, or the error's name. */
const outcome = (serialize: (data: unknown) => string, data: unknown) => {
  try {
    return serialize(data);
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
};

const booked = {
  id: 41,
  time: '2026-11-29T10:00:00+01:00',
  calendar: 3,
  slot: '2026-11-29T10:00',
  subscription: null,
  paid: false,
  paid_with_credits: false,
  calendar_name: 'Rig "7" \\ \u2028 é 🏁',
  location: 2,
  timezone: 'Europe/Berlin',
  location_name: 'Arena\n</script>',
  currency: 'EUR',
  user: 12,
  user_display_name: 'Ana \ud800',
  is_blackout: false,
  notes: '',
  created_by: 7,
  created_by_name: null,
  checkout: null,
  amount_cents: -0,
  duration_minutes: 30,
  reservation_ids: [41],
};

describe('the compiled answer writer', () => {
  it('writes a reservation exactly as zod and JSON.stringify did, extra keys left out', () => {
    const [fast, slow] = both(reservation);
    // Written by the compiled writer, not handed to zod.
    expect(answerWriter(reservation)?.(booked)).toBe(slow(booked));
    expect(answerWriter({ properties: reservation })).not.toBeNull();
    for (const data of [
      booked,
      { ...booked, extra: 'dropped', user: null, user_display_name: null, reservation_ids: [] },
      { extra: 1, ...booked, subscription: 9, paid: true, checkout: 5, amount_cents: 2750 },
    ])
      expect(fast(data)).toBe(slow(data));
  });

  it('leaves every answer not as the contract says to zod, which refuses it as before', () => {
    const [fast, slow] = both(reservation);
    for (const data of [
      { ...booked, id: 1.5 },
      { ...booked, id: Number.MAX_SAFE_INTEGER + 2 },
      { ...booked, amount_cents: Number.NaN },
      { ...booked, time: 5 },
      { ...booked, paid: 'no' },
      { ...booked, user: undefined },
      { ...booked, reservation_ids: [1, '2'] },
      { ...booked, reservation_ids: 'x' },
      [booked],
      null,
    ]) {
      expect(outcome(fast, data)).toBe(outcome(slow, data));
      expect(outcome(fast, data)).toMatch(/^threw/);
    }
  });

  it('hands shapes it does not write itself to zod', () => {
    const special = z.object({
      a: z.string().min(2),
      b: z.number().optional(),
      c: z.string().transform((s) => s.length),
    });
    const strict = z.object({ n: z.number() }).strict();
    expect(answerWriter(special)).toBeNull();
    expect(answerWriter(strict)).toBeNull();
    for (const schema of [special, detailBody, strict]) {
      const [fast, slow] = both(schema);
      for (const data of [{ a: 'xy', b: 1, c: 'abc', detail: 'd', n: 2 }, { a: 'x' }, {}])
        expect(outcome(fast, data)).toBe(outcome(slow, data));
    }
  });

  it('writes plain numbers as JSON.stringify does', () => {
    const [fast, slow] = both(z.object({ x: z.number(), y: z.array(z.number()).nullable() }));
    for (const data of [
      { x: 0.1, y: [1e21, -0, 5e-7] },
      { x: -3, y: null },
      { x: Number.POSITIVE_INFINITY, y: null },
    ])
      expect(outcome(fast, data)).toBe(outcome(slow, data));
  });
});

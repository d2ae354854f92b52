import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import '@paddock/contract/zod-messages';

const messageOf = (schema: z.ZodType, input: unknown) =>
  schema.safeParse(input).error?.issues[0]?.message;

describe("zod's own messages, in words (issue 30, decision 0096)", () => {
  it('words bounds as "at most" and "at least", with units', () => {
    expect(messageOf(z.number().max(100), 101)).toBe('Must be at most 100.');
    expect(messageOf(z.number().int().min(1), 0)).toBe('Must be at least 1.');
    expect(messageOf(z.number().lt(5), 5)).toBe('Must be less than 5.');
    expect(messageOf(z.string().max(64), 'x'.repeat(65))).toBe('Must be at most 64 characters.');
    expect(messageOf(z.string().min(8), 'short')).toBe('Must be at least 8 characters.');
    expect(messageOf(z.string().min(1), '')).toBe('This field may not be blank.');
    expect(messageOf(z.array(z.number()).max(1), [1, 2])).toBe('Must be at most 1 item.');
  });

  it('words types, choices and unknown fields', () => {
    expect(messageOf(z.object({ a: z.number() }), {})).toBe('This field is required.');
    expect(messageOf(z.number(), 'ten')).toBe('Must be a number.');
    expect(messageOf(z.number().int(), 1.5)).toBe('Must be a whole number.');
    expect(messageOf(z.enum(['cash', 'other']), 'gold')).toBe('Must be one of "cash", "other".');
    expect(messageOf(z.object({}).strict(), { extra: 1 })).toBe('Not a field here: extra.');
    expect(messageOf(z.email(), 'nope')).toBe('Not a valid e-mail address.');
  });

  it("leaves a schema's own message alone", () => {
    expect(messageOf(z.number().max(100, 'Too many racers.'), 101)).toBe('Too many racers.');
  });
});

const rules = new Intl.PluralRules('en-US');

/** `3 simulators`, `1 simulator`: a count and its noun in the right number (Intl.PluralRules). */
export function countOf(count: number, noun: { one: string; other: string }): string {
  return `${count} ${rules.select(count) === 'one' ? noun.one : noun.other}`;
}

export const SIMULATORS = { one: 'simulator', other: 'simulators' };
export const SLOTS = { one: 'slot', other: 'slots' };

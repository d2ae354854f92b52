/** `3 laps`, `1 lap`: a count and its noun in the right number, for the data screens' words. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

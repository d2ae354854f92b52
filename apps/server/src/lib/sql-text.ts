/** Text matched literally by LIKE/ILIKE: `%`, `_` and `\` lose their meaning. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An ILIKE pattern for "contains this word". */
export const containsPattern = (word: string) => `%${escapeLike(word)}%`;

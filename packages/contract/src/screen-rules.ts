// The wall screen's own rules without zod: a TV page checks its name and path with them before
// anything else loads (decision 0045); `screens.ts` builds the API's schemas from the same values.

/** A wall screen's name, from its own `?screen=` query: letters, digits, spaces and `._-`. */
export const SCREEN_NAME_MAX = 40;
export const SCREEN_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}$/u;
export const SCREEN_NAME_MESSAGE = `Use up to ${SCREEN_NAME_MAX} letters, digits, spaces, dots, dashes or underscores.`;

/** The page a screen shows (path and query), as the screen reports it. */
export const SCREEN_PATH_MAX = 200;
// Not `//host` or `/\host`: staff open it as a link, and those leave the site.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
export const SCREEN_PATH_PATTERN = /^\/(?![/\\])[^\s\u0000-\u001f\u007f\\]*$/;
export const SCREEN_PATH_MESSAGE = 'Enter a path starting with /.';

export const isScreenName = (value: string) => SCREEN_NAME_PATTERN.test(value);

export const isScreenPath = (value: string) =>
  value.length <= SCREEN_PATH_MAX && SCREEN_PATH_PATTERN.test(value);

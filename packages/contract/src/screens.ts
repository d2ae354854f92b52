import { z } from 'zod';
import { idNumber } from './common';

/** A wall screen's name, from its own `?screen=` query: letters, digits, spaces and `._-`. */
export const SCREEN_NAME_MAX = 40;
export const screenName = z
  .string()
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,39}$/u,
    `Use up to ${SCREEN_NAME_MAX} letters, digits, spaces, dots, dashes or underscores.`,
  );
/** The page a screen shows (path and query), as the screen reports it. */
export const screenPath = z
  .string()
  .max(200)
  // Not `//host` or `/\host`: staff open it as a link, and those leave the site.
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .regex(/^\/(?![/\\])[^\s\u0000-\u001f\u007f\\]*$/, 'Enter a path starting with /.');

/** A screen is online while it checks in: one heartbeat every 15 s, two missed allowed. */
export const SCREEN_ONLINE_SECONDS = 45;

export const screen = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  build: z.string().nullable(),
  user_agent: z.string().nullable(),
  first_seen: z.string(),
  last_seen: z.string(),
  online: z.boolean(),
});
export type Screen = z.infer<typeof screen>;

export const screenList = z.object({
  /** The build this server serves; a screen on another build reloads itself. */
  build: z.string().nullable(),
  results: z.array(screen),
});
export type ScreenList = z.infer<typeof screenList>;

/** Tell one screen (`screen_id`) or every screen (no id) to reload. */
export const screenReload = z.object({ screen_id: idNumber.optional() }).strict();
export type ScreenReload = z.infer<typeof screenReload>;

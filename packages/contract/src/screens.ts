import { z } from 'zod';
import { idNumber } from './common';
import {
  SCREEN_NAME_MESSAGE,
  SCREEN_NAME_PATTERN,
  SCREEN_PATH_MAX,
  SCREEN_PATH_MESSAGE,
  SCREEN_PATH_PATTERN,
} from './screen-rules';

export { SCREEN_NAME_MAX } from './screen-rules';

/** A wall screen's name, from its own `?screen=` query (rules in screen-rules.ts). */
export const screenName = z.string().regex(SCREEN_NAME_PATTERN, SCREEN_NAME_MESSAGE);
/** The page a screen shows (path and query), as the screen reports it. */
export const screenPath = z
  .string()
  .max(SCREEN_PATH_MAX)
  .regex(SCREEN_PATH_PATTERN, SCREEN_PATH_MESSAGE);

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

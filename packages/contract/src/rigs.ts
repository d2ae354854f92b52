// The rig agents on a venue's PCs (issue 43, decision 0121): pairing a PC with a seat by a short
// code, the agent's health reports, and the agent build the server ships.
import { z } from 'zod';
import { idNumber } from './common';

/** Pairing codes: six of these (no 0/O, 1/I/L), shown as `ABC-234`. */
export const PAIRING_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** How long a code waits for staff. */
export const PAIRING_MINUTES = 10;

/** A code as staff may type it: any case, with or without the dash or spaces. */
export const pairingCode = z
  .string()
  .max(20)
  .transform((s) => s.toUpperCase().replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .regex(
        new RegExp(`^[${PAIRING_ALPHABET}]{6}$`),
        'Enter the six letters and digits the rig shows, e.g. ABC-234.',
      ),
  );

/** POST /rig_pairings (the agent, no key yet). */
export const rigPairingStart = z
  .object({ hostname: z.string().trim().max(64).default('') })
  .strict();
export const rigPairingStarted = z.object({
  /** Shown on the PC, e.g. `ABC-234`. */
  code: z.string(),
  /** Only this agent's: it fetches the key with it. */
  secret: z.string(),
  expires: z.string(),
});
/** POST /rig_pairings/key (the agent, with its secret). */
export const rigPairingPoll = z.object({ secret: z.string().min(1).max(200) }).strict();
export const rigPairingState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('waiting'), expires: z.string() }),
  z.object({
    state: z.literal('paired'),
    /** Handed over once: the row is gone after this answer. */
    key: z.string(),
    calendar: z.number().int(),
    calendar_name: z.string(),
  }),
]);
/** GET /rig_pairings (staff): PCs showing a code now. */
export const waitingRig = z.object({ code: z.string(), hostname: z.string(), created: z.string() });
/** POST /rig_keys/pair (staff): the code a PC shows, for this seat. */
export const rigPair = z.object({ calendar: idNumber, code: pairingCode }).strict();

/** POST /rigs/health (the agent, with its key). */
export const rigHealthReport = z
  .object({
    version: z.string().trim().min(1).max(64),
    sim_running: z.boolean(),
    /** Free bytes on the drive of the results/replays folder; null when unknown. */
    disk_free_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  })
  .strict();
/** GET /rigs/health (staff): each seat's agent as it last reported. */
export const rigHealth = z.object({
  calendar: z.number().int(),
  version: z.string(),
  sim_running: z.boolean(),
  disk_free_bytes: z.number().int().nullable(),
  last_seen: z.string(),
});
export type RigHealth = z.infer<typeof rigHealth>;

/** GET /rigs/agent (the agent, with its key): the build the server ships. */
export const rigAgentBuild = z.object({
  version: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  /** Where to download it (with the rig key). */
  url: z.string(),
});

import { z } from 'zod';
import { idNumber } from './common';

/**
 * The rig session (issue 42, decision 0120): what a seat's rig knows about its current and next
 * booking, read with the rig's key (`Authorization: Rig <key>`) by the rig agent and the rig
 * screen.
 */

/** How a booked session's sim starts (venue setting `rig_start_mode`). */
export const RIG_START_MODES = ['customer', 'automatic', 'staff'] as const;
export type RigStartMode = (typeof RIG_START_MODES)[number];
export const RIG_START_MODE_LABELS: Record<RigStartMode, string> = {
  customer: 'The customer presses Start on the rig screen',
  automatic: 'Automatically at the booking’s start',
  staff: 'Staff start it from the launcher',
};

export const rigSessionBooking = z.object({
  /** The session's first booking. */
  reservation: z.number().int(),
  /** The customer's display name; null when they have none but an e-mail (never shown). */
  customer_name: z.string().nullable(),
  starts: z.string(),
  ends: z.string(),
  paid: z.boolean(),
  club: z.boolean(),
  /** The session started (the booking is checked in). */
  checked_in: z.boolean(),
});
export type RigSessionBooking = z.infer<typeof rigSessionBooking>;

export const rigSession = z.object({
  seat: z.number().int(),
  seat_name: z.string(),
  location_name: z.string(),
  timezone: z.string(),
  /** The server's clock when it answered (the screen and agent count time left from it). */
  now: z.string(),
  out_of_service: z.boolean(),
  current: rigSessionBooking.nullable(),
  next: rigSessionBooking.nullable(),
  start_mode: z.enum(RIG_START_MODES),
  first_warning_minutes: z.number().int(),
  last_warning_minutes: z.number().int(),
  /** The half-hour after the current session is free for its customer to extend into. */
  can_extend: z.boolean(),
  /** What the seat runs: the car and track of its race event (null: none set). */
  car: z.string().nullable(),
  track: z.string().nullable(),
});
export type RigSession = z.infer<typeof rigSession>;

/** The rig screen's Start and the agent's "the sim runs" both check the session in. */
export const rigSessionStart = z.object({
  reservation: idNumber,
});

export const rigSessionExtend = z.object({
  /** The session being extended (its first booking, as the rig read it): a stale screen fails. */
  reservation: idNumber,
  ends: z.string().datetime({ offset: true }),
});

/** The same from the app, on the customer's own booking (`POST /reservations/{id}/extend`). */
export const ownSessionExtend = z.object({
  ends: z.string().datetime({ offset: true }),
});

export const rigSessionExtended = z.object({
  detail: z.string(),
  /** The new end of the session. */
  ends: z.string(),
  paid: z.boolean(),
});

/** What the agent did while it could not reach Paddock, told when it is back. */
export const rigSessionReport = z.object({
  reservation: idNumber,
  event: z.enum(['started', 'warned', 'ended']),
  at: z.string().datetime({ offset: true }),
  offline: z.boolean(),
});

/** The rig screen's words, one place for the screen and its tests. */
export const RIG_SCREEN_WORDS = {
  freeNow: 'Free now',
  outOfService: 'Out of service',
  nextBookedAt: (time: string) => `Next booked at ${time}`,
  freeUntil: (time: string) => `Free until ${time}`,
  welcome: (name: string | null) => (name ? `Welcome, ${name}` : 'Welcome'),
  minutesLeft: (n: number) => (n === 1 ? '1 minute left' : `${n} minutes left`),
  nextIsBooked: 'Someone else has the next slot: your session ends on time.',
  extend: 'Extend 30 minutes',
  extended: (time: string) => `Extended: your session now ends at ${time}.`,
  ended: 'Your session has ended. Thank you for racing with us!',
  start: 'Start',
} as const;

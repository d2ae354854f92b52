import { z } from 'zod';
import { refundBreakdown } from './refunds';

// A customer's data in their hands (issue 45, decision 0124): the export of everything about
// them, and deleting the account with what it does said first.

/** One future booking deleting the account cancels, with what cancelling it now gives back. */
export const deletionBooking = z.object({
  reservation: z.number().int(),
  location: z.string(),
  seat: z.string(),
  starts_at: z.string(),
  timezone: z.string(),
  free: z.boolean(),
  refund: refundBreakdown,
});
export type DeletionBooking = z.infer<typeof deletionBooking>;

/** `GET /users/{id}/deletion_preview`: what deleting the account would do, before it is done. */
export const deletionPreview = z.object({
  bookings: z.array(deletionBooking),
  /** Everything that comes back, in cents (card, credits and vouchers together). */
  refund_total_cents: z.number().int(),
  /** One sentence per consequence, in the order the screen states them. */
  statements: z.array(z.string()),
});
export type DeletionPreview = z.infer<typeof deletionPreview>;

/** `POST /users/{id}/delete_account` (one's own only): the current password confirms it. */
export const deleteAccountRequest = z
  .object({ current_password: z.string().max(128).optional() })
  .strict();
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequest>;

export const ACCOUNT_DELETED_MESSAGE = 'Your account is deleted.';

/**
 * `GET /users/{id}/my_data`: everything Paddock holds about the person. `summary` is the same
 * in words (the readable part); the rest are the records themselves, keys as stored.
 */
const records = z.array(z.record(z.string(), z.unknown()));
export const myDataExport = z.object({
  format: z.literal('paddock-my-data-1'),
  generated_at: z.string(),
  venue: z.string(),
  summary: z.array(z.string()),
  profile: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  bookings: records,
  payments: records,
  refunds: records,
  saved_card: records,
  club_memberships: records,
  club_credits: records,
  vouchers_bought: records,
  vouchers_redeemed: records,
  waitlist: records,
  laps: records,
  race_results: records,
  mails: records,
  account_history: records,
});
export type MyDataExport = z.infer<typeof myDataExport>;

/** What the laps of a deleted driver do on the boards (a venue setting). */
export const DELETED_DRIVER_LAPS = ['remove', 'deleted_driver'] as const;
export const DELETED_DRIVER_NAME = 'Deleted driver';

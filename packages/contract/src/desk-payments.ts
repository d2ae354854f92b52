import { z } from 'zod';
import { idNumber, INT_MAX } from './common';
import { charge, deskMethod } from './charges';

export const DESK_NOTE_MAX = 200;
/** The most bookings one desk payment may name. */
export const DESK_PAYMENT_BOOKINGS_MAX = 500;

/**
 * `POST /users/{id}/desk_payments`: money staff took at the desk toward the outstanding balance.
 * `idempotency_key` is made by the client once per dialog, so a double click records once.
 */
export const deskPaymentRequest = z.object({
  method: deskMethod,
  amount_cents: z
    .number('A valid integer is required.')
    .int('A valid integer is required.')
    .min(1, 'Ensure this value is greater than or equal to 1.')
    .max(INT_MAX, `Ensure this value is less than or equal to ${INT_MAX}.`),
  note: z.string().trim().max(DESK_NOTE_MAX).default(''),
  idempotency_key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'Use 8 to 64 letters, digits, dashes or underscores.'),
  /**
   * The bookings this payment is for (the desk's own sale, decision 0116): only these settle,
   * oldest first. Staff holding only the planner permission must name them; without it, the
   * customer's whole outstanding balance is the pool, oldest first.
   */
  reservations: z
    .array(idNumber)
    .min(1, 'Name at least one booking.')
    .max(DESK_PAYMENT_BOOKINGS_MAX, `Name at most ${DESK_PAYMENT_BOOKINGS_MAX} bookings.`)
    .optional(),
});
export type DeskPaymentRequest = z.input<typeof deskPaymentRequest>;

export const deskPaymentResponse = z.object({
  detail: z.string(),
  charge,
  /** The bookings this payment settled, oldest first. */
  reservations: z.array(z.number().int()),
  /** What is still owed afterwards (all currencies' items, as the balance sums them). */
  balance_cents: z.number().int(),
});
export type DeskPaymentResponse = z.infer<typeof deskPaymentResponse>;

import { z } from 'zod';

/** A chargeback on one of the customer's payments (decision 0084), as staff see it. */
export const dispute = z.object({
  id: z.number().int(),
  /** Stripe's `dp_…`; its page is https://dashboard.stripe.com/disputes/{dispute_ref}. */
  dispute_ref: z.string(),
  charge: z.number().int(),
  amount_cents: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  /** Stripe's status: `needs_response`, `under_review`, `won`, `lost`… */
  status: z.string(),
  /** Open until Stripe closes it. */
  open: z.boolean(),
  /** The bookings the disputed payment paid for. */
  reservations: z.array(z.number().int()),
  opened: z.string(),
  closed: z.string().nullable(),
});
export type Dispute = z.infer<typeof dispute>;

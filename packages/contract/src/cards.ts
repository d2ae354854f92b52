import { z } from 'zod';

/** The saved card; `{}` means no card. */
export const card = z.union([
  z.object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
    postal_code: z.string().nullable(),
  }),
  z.object({}).strict(),
]);
export type Card = z.infer<typeof card>;

export const addCardRequest = z.object({ token: z.string().trim().min(1).max(255) }).strict();

/** The local provider's tokenization call, shaped like Stripe's. */
export const localTokenRequest = z
  .object({
    number: z.string().trim().min(12).max(23),
    exp_month: z.coerce.number().int(),
    exp_year: z.coerce.number().int(),
    cvc: z.string().trim().min(3).max(4),
    postal_code: z.string().trim().max(16).optional(),
  })
  .strict();
export type LocalTokenRequest = z.infer<typeof localTokenRequest>;
export const localTokenResponse = z.object({ id: z.string() });

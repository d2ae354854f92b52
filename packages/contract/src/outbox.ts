import { z } from 'zod';

/** A mail kept in the outbox when no SMTP server is configured. */
export const outboxMessage = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** ISO 8601 instant. */
  created: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

import { z } from 'zod';

/**
 * One line of the outbox list: who, what and when, never the body (it may hold a login link;
 * decision 0097). `status` is `sent`: a row is written when the mail is handed over.
 */
export const outboxSummary = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(['sent']),
  /** ISO 8601 instant. */
  created: z.string(),
});
export type OutboxSummary = z.infer<typeof outboxSummary>;

/** A mail kept in the outbox when no SMTP server is configured, opened: with its body. */
export const outboxMessage = outboxSummary.extend({
  text: z.string(),
  html: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

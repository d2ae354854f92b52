import { z } from 'zod';

/**
 * What became of a mail: `kept` in the outbox because no mail server (`SMTP_URL`) is set, so
 * nobody received it; `sent` handed to the mail server (decision 0115).
 */
export const OUTBOX_STATUSES = ['kept', 'sent'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
/** The words staff read for each status. */
export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  kept: 'Kept (no mail server)',
  sent: 'Sent',
};

/**
 * One line of the outbox list: who, what and when, never the body (it may hold a login link;
 * decision 0097). The outbox holds only mail kept while no mail server was set, so each line is
 * `kept`: it was never sent (decision 0115).
 */
export const outboxSummary = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(['kept']),
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

/**
 * POST /outbox/{id}/resend → 201: the same mail again, to the same address. With no mail server
 * a new copy is kept in the outbox (`kept`, listed first); otherwise it is `sent`.
 */
export const outboxResend = z.object({
  detail: z.string(),
  status: z.enum(OUTBOX_STATUSES),
});
export type OutboxResend = z.infer<typeof outboxResend>;

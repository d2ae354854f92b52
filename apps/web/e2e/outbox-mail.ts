import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';

export type Mail = { id: number; to: string; subject: string; text: string; html: string };

/**
 * The newest outbox mail to `to` (and, if given, with a subject that `subject` matches), read
 * with `access`: the list names it, opening it gives its body (the list carries none, decision
 * 0097). Waits until it is there.
 */
export async function outboxMail(
  request: APIRequestContext,
  access: string,
  to: string,
  subject?: RegExp,
): Promise<Mail> {
  const headers = { Authorization: `Bearer ${access}` };
  let id = 0;
  await expect
    .poll(async () => {
      const answer = await request.get('/api/outbox', { headers });
      const { results } = (await answer.json()) as { results: Omit<Mail, 'text' | 'html'>[] };
      id = results.find((m) => m.to.includes(to) && (!subject || subject.test(m.subject)))?.id ?? 0;
      return id;
    })
    .not.toBe(0);
  const opened = await request.get(`/api/outbox/${id}`, { headers });
  expect(opened.ok()).toBe(true);
  return (await opened.json()) as Mail;
}

import fs from 'node:fs/promises';
import path from 'node:path';
import { asc, count, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { receiptsOwed } from '../db/schema/booking';
import { outboxMessages } from '../db/schema/content';
import type { TestApp } from './test-app';

/**
 * Waits until no booking confirmation is owed: they are sent after the checkout's answer
 * (decision 0059). Bounded (10 s); it waits for the condition, never for a fixed time.
 */
export async function receiptsSent(t: Pick<TestApp, 'app' | 'db'>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await t.app.receipts.idle();
    const [{ n }] = await t.db.select({ n: count() }).from(receiptsOwed);
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} booking confirmations still owed after 10 s`);
    // Owed but not being sent here: another instance holds it, or it waits after a failure.
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.app.receipts.wake();
  }
}

/**
 * The mails really sent to `to`, oldest first, as a mail client reads them: the .eml files the
 * mailer (nodemailer) wrote, parsed by an independent MIME parser (mailparser).
 */
export async function sentMails(t: TestApp, to: string): Promise<ParsedMail[]> {
  await receiptsSent(t);
  const rows = await t.db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(eq(outboxMessages.to, to))
    .orderBy(asc(outboxMessages.id));
  const dir = path.join(t.deps.config.dataDir, 'outbox');
  const files = await fs.readdir(dir).catch(() => [] as string[]);
  return Promise.all(
    rows.map(async ({ id }) => {
      const file = files.find((f) => f.endsWith(`-${id}.eml`));
      if (!file) throw new Error(`no .eml for outbox message ${id}`);
      return simpleParser(await fs.readFile(path.join(dir, file)));
    }),
  );
}

/** The one mail to `to` whose subject matches; fails the test when there is none or several. */
export async function sentMail(t: TestApp, to: string, subject: RegExp): Promise<ParsedMail> {
  const matching = (await sentMails(t, to)).filter((m) => subject.test(m.subject ?? ''));
  if (matching.length !== 1)
    throw new Error(`expected one mail to ${to} matching ${subject}, found ${matching.length}`);
  return matching[0];
}

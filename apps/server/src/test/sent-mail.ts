import fs from 'node:fs/promises';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { outboxMessages } from '../db/schema/content';
import type { TestApp } from './test-app';

/**
 * The mails really sent to `to`, oldest first, as a mail client reads them: the .eml files the
 * mailer (nodemailer) wrote, parsed by an independent MIME parser (mailparser).
 */
export async function sentMails(t: TestApp, to: string): Promise<ParsedMail[]> {
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

import type { Transporter } from 'nodemailer';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client';
import { outboxMessages } from '../db/schema/content';
import type { Queryable } from './payments/charge-card';
import { mailsCounter } from './business-metrics';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: string | Buffer; contentType?: string }[];
};

export interface Mailer {
  /**
   * `db`: the transaction the outbox row belongs to, when the caller's own rows must commit or
   * roll back with it (the receipts owed, decision 0059); SMTP is outside any transaction.
   */
  send(message: MailMessage, db?: Queryable): Promise<void>;
  /** Several, in order; the local outbox stores them in one statement. */
  sendAll(messages: MailMessage[], db?: Queryable): Promise<void>;
}

/**
 * Sends through SMTP when `SMTP_URL` is set; otherwise keeps each message as an .eml file in
 * `<dataDir>/outbox` and a row in `outbox_messages` that staff can read through the API.
 */
export function createMailer(opts: Parameters<typeof makeMailer>[0]): Mailer {
  return counted(makeMailer(opts));
}

/** Counts each message sent or failed (paddock_mails_total). */
function counted(mailer: Mailer): Mailer {
  const count = async (n: number, sending: Promise<void>) => {
    try {
      await sending;
      mailsCounter.inc({ outcome: 'sent' }, n);
    } catch (error) {
      mailsCounter.inc({ outcome: 'failed' }, n);
      throw error;
    }
  };
  return {
    send: (message, db) => count(1, mailer.send(message, db)),
    sendAll: (messages, db) => count(messages.length, mailer.sendAll(messages, db)),
  };
}

function makeMailer(opts: { smtpUrl?: string; from: string; dataDir: string; db: Db }): Mailer {
  // Nodemailer is loaded with the first message, not at start-up (decision 0049).
  let made: Promise<Transporter> | undefined;
  const transporter = (options: Parameters<typeof import('nodemailer').createTransport>[0]) =>
    (made ??= import('nodemailer').then((m) => m.default.createTransport(options)));
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    const send = async (message: MailMessage) => {
      await (await transporter(smtpUrl)).sendMail({ from: opts.from, ...message });
    };
    return {
      send,
      async sendAll(messages) {
        for (const message of messages) await send(message);
      },
    };
  }
  const dir = path.join(opts.dataDir, 'outbox');
  // Made once, not per message (a mkdir per mail was ~1 % of a checkout's CPU, session 9).
  let dirMade: Promise<unknown> | undefined;
  const sendAll = async (messages: MailMessage[], db: Queryable = opts.db) => {
    if (messages.length === 0) return;
    const transport = await transporter({ streamTransport: true, buffer: true, newline: 'unix' });
    const built: Buffer[] = [];
    for (const message of messages)
      built.push((await transport.sendMail({ from: opts.from, ...message })).message as Buffer);
    const rows = await db
      .insert(outboxMessages)
      .values(
        messages.map((message) => ({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? '',
        })),
      )
      .returning({ id: outboxMessages.id });
    await (dirMade ??= fs.mkdir(dir, { recursive: true }).catch((error: unknown) => {
      dirMade = undefined;
      throw error;
    }));
    const now = Date.now();
    // A multi-row INSERT … RETURNING answers in the order of its VALUES.
    await Promise.all(
      rows.map((row, i) => fs.writeFile(path.join(dir, `${now}-${row.id}.eml`), built[i])),
    );
  };
  return { send: (message, db) => sendAll([message], db), sendAll };
}

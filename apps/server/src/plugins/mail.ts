import type { Transporter } from 'nodemailer';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/client';
import { outboxMessages } from '../db/schema/content';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: string | Buffer; contentType?: string }[];
};

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends through SMTP when `SMTP_URL` is set; otherwise keeps each message as an .eml file in
 * `<dataDir>/outbox` and a row in `outbox_messages` that staff can read through the API.
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  db: Db;
}): Mailer {
  // Nodemailer is loaded with the first message, not at start-up (decision 0049).
  let made: Promise<Transporter> | undefined;
  const transporter = (options: Parameters<typeof import('nodemailer').createTransport>[0]) =>
    (made ??= import('nodemailer').then((m) => m.default.createTransport(options)));
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    return {
      async send(message) {
        await (await transporter(smtpUrl)).sendMail({ from: opts.from, ...message });
      },
    };
  }
  const dir = path.join(opts.dataDir, 'outbox');
  return {
    async send(message) {
      const transport = await transporter({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transport.sendMail({ from: opts.from, ...message });
      const [row] = await opts.db
        .insert(outboxMessages)
        .values({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? '',
        })
        .returning({ id: outboxMessages.id });
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, `${Date.now()}-${row.id}.eml`), info.message as Buffer);
    },
  };
}

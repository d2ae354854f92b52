import { and, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { receiptsOwed } from '../../db/schema/booking';
import type { Mailer, MailMessage } from '../../plugins/mail';
import type { Queryable } from '../../plugins/payments/charge-card';
import {
  confirmationOf,
  readBookingFacts,
  readConfirmationFacts,
  type PaidBooking,
} from './send-confirmation';

// Booking confirmations are owed in the database and sent after the answer (decisions 0059,
// 0102): a checkout's and a club credit booking's alike. The row is written with the payment,
// so a process killed after the commit still owes the mail; any instance's sender takes it with `FOR UPDATE SKIP LOCKED`, so two instances never
// take the same one, and deletes it in the transaction that stores the mail in the outbox.

/** Receipts claimed per transaction. */
const BATCH = 50;
/**
 * A wake waits this long before its pass, so the receipts of a rush of checkouts go out in a
 * few batches, not one transaction (five round trips) for every one or two (decision 0062).
 */
const GATHER_MS = 25;
/** Every instance looks for receipts owed this often (another instance's, or after a crash). */
const POLL_MS = 5_000;
/** After this many failed attempts a receipt is given up (logged each time). */
const MAX_ATTEMPTS = 10;

/** Records, in the caller's transaction, that a paid checkout's confirmation is owed. */
export async function oweConfirmation(db: Queryable, checkoutId: number): Promise<void> {
  await db.insert(receiptsOwed).values({ checkoutId }).onConflictDoNothing();
}

/**
 * Records, in the caller's transaction, that a booking no checkout finishes (one paid with a
 * club subscription's credit) owes its confirmation: sent after the commit by the sender, like a
 * checkout's, from these facts.
 */
export async function oweBookingConfirmation(db: Queryable, booking: PaidBooking): Promise<void> {
  await db.insert(receiptsOwed).values({ facts: booking });
}

export type SenderDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  mailFrom: string;
  logError: (error: unknown, message: string) => void;
};

type OwedRow = { id: number; checkout_id: number | null; facts: PaidBooking | null };

export class ReceiptSender {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: SenderDeps) {}

  /** Looks for receipts now and every few seconds (those left by a crash included). */
  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /**
   * Sends what is owed soon, after the current request's answer; wakes during a send are
   * folded into one more pass (a batch of everything owed by then).
   */
  wake(): void {
    if (this.closed) return;
    this.again = true;
    this.running ??= this.run();
  }

  /** Resolves when this instance has nothing more to send for now. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.idle();
  }

  private async run(): Promise<void> {
    try {
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      while (this.again && !this.closed) {
        this.again = false;
        while (!this.closed && (await this.sendBatch()) === BATCH);
      }
    } catch (error) {
      this.deps.logError(error, 'receipts owed not sent; retried later');
    } finally {
      this.running = null;
    }
  }

  /** One transaction: claims up to BATCH receipts, mails them, forgets them. */
  private async sendBatch(): Promise<number> {
    const { db, mailer } = this.deps;
    let claimed: OwedRow[] = [];
    try {
      return await db.transaction(async (tx) => {
        const owed = await tx.execute<OwedRow>(sql`
          select id, checkout_id, facts from ${receiptsOwed}
          where due_at <= now() order by due_at limit ${BATCH} for update skip locked`);
        claimed = owed.rows;
        if (claimed.length === 0) return 0;
        const messages: MailMessage[] = [];
        for (const row of claimed) {
          const facts = await readOwedFacts(tx, row);
          if (facts) messages.push(await confirmationOf(this.deps, facts));
        }
        await mailer.sendAll(messages, tx);
        const sent = claimed.map((row) => row.id);
        await tx.delete(receiptsOwed).where(inArray(receiptsOwed.id, sent));
        return claimed.length;
      });
    } catch (error) {
      // The whole batch rolled back (an outbox row kept without its receipt row would be sent
      // twice): each of its receipts is tried again later, and dropped after MAX_ATTEMPTS.
      const ids = claimed.map((row) => row.id);
      if (ids.length > 0) {
        const dropped = await db
          .delete(receiptsOwed)
          .where(and(inArray(receiptsOwed.id, ids), gte(receiptsOwed.attempts, MAX_ATTEMPTS - 1)))
          .returning({ checkoutId: receiptsOwed.checkoutId, facts: receiptsOwed.facts });
        for (const row of dropped)
          this.deps.logError(error, `booking confirmation of ${owedName(row)} given up`);
        await db
          .update(receiptsOwed)
          .set({
            attempts: sql`${receiptsOwed.attempts} + 1`,
            dueAt: sql`now() + least(power(2, ${receiptsOwed.attempts}) * interval '10 seconds', interval '1 hour')`,
          })
          .where(inArray(receiptsOwed.id, ids));
      }
      throw error;
    }
  }
}

/** What an owed row's mail says: read from its checkout, or from the facts it stored. */
function readOwedFacts(db: Queryable, row: OwedRow) {
  if (row.checkout_id !== null) return readConfirmationFacts(db, row.checkout_id);
  return row.facts ? readBookingFacts(db, row.facts) : Promise.resolve(null);
}

/** How the log names an owed confirmation: `checkout 12`, `Reservation #34`. */
function owedName(row: { checkoutId: number | null; facts: Record<string, unknown> | null }) {
  return row.checkoutId !== null ? `checkout ${row.checkoutId}` : String(row.facts?.reference);
}

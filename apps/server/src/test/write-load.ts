import type { App } from '../deps';
import { bearer, createUser, type CreatedUser } from './factories';
import { saveTestCard } from './cards';
import { futureDate } from './booking-factories';
import type { Db } from '../db/client';
import type { Tokens } from '../plugins/auth';

/** An app and its database: a test app, or one built on a database the test restarts. */
export type LoadTarget = { app: App; db: Db; deps: { tokens: Tokens } };

/** Slots handed out in this test file so far: a second load in the file takes new ones. */
let next = 0;

/** One answer the load got: its status and its Retry-After header. */
export type Answer = { what: string; status: number; retryAfter: string | undefined };

/**
 * Bookings and checkouts (quote then process, each a transaction on a checked-out client) sent
 * by `workers` customers with saved cards, each one after the other, until `stop()`. Every
 * request takes a slot of its own (seats × days × half-hours), so a taken seat is no answer here.
 */
export async function startWriteLoad(
  t: LoadTarget,
  seats: number[],
  opts: { workers?: number; app?: () => App } = {},
) {
  const customers: CreatedUser[] = [];
  for (let i = 0; i < (opts.workers ?? 6); i += 1) {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    customers.push(customer);
  }
  const app = opts.app ?? (() => t.app);
  const answers: Answer[] = [];
  const slot = () => {
    const n = next++;
    const seat = seats[n % seats.length];
    const k = Math.floor(n / seats.length);
    const minutes = (k % 48) * 30;
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 ? '30' : '00'}`;
    return { calendar: seat, slot: `${futureDate(2 + Math.floor(k / 48))}T${time}` };
  };
  let running = true;
  const send = async (what: string, customer: CreatedUser, url: string, payload: object) => {
    const res = await app().inject({
      method: 'POST',
      url,
      headers: bearer(customer.token),
      payload,
    });
    answers.push({
      what,
      status: res.statusCode,
      retryAfter: res.headers['retry-after'] as string,
    });
    return res;
  };
  const worker = async (customer: CreatedUser, i: number) => {
    while (running) {
      if (i % 2 === 0) {
        await send('booking', customer, '/api/reservations', slot());
      } else {
        const quote = await send('quote', customer, '/api/reservations/checkouts/quote', {
          reservations: [slot()],
        });
        if (quote.statusCode === 200)
          await send(
            'checkout',
            customer,
            `/api/reservations/checkouts/${quote.json().checkout_id}/process`,
            {},
          );
      }
    }
  };
  const done = Promise.all(customers.map((c, i) => worker(c, i)));
  return {
    answers,
    async stop() {
      running = false;
      await done;
      return answers;
    },
  };
}

/** Statuses a request may get while the database goes away: done, refused, or 503 to retry. */
export const EXPECTED_STATUSES = [200, 201, 400, 402, 503];

/** `booking 201×12, booking 503×3, …`: what the load was answered, for the test's log. */
export function summary(answers: Answer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers)
    counts.set(`${a.what} ${a.status}`, (counts.get(`${a.what} ${a.status}`) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k}×${n}`).join(', ');
}

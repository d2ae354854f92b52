import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../plugins/changes';
import type { Queryable } from '../../plugins/payments/charge-card';
import { findActiveSeats, type SeatForBooking } from './reservations.repo';

/** Bound on remembered seats (a venue has tens to hundreds). */
const SEATS = 5000;

/** Active seats with their location and type by id, as a booking needs them. */
export type SeatLookup = (ids: number[]) => Promise<SeatForBooking[]>;

/**
 * Active seats with their location, kept in memory for the booking write path (decision 0046),
 * made safe the way the availability answers are (decision 0036): any write to seats, locations
 * or seat types is announced as `*` by a trigger and forgets them all, and a remembered seat is
 * only used after the request's barrier showed every announcement committed before it was heard.
 * Without the change feed nothing is kept.
 */
export class SeatCache {
  private readonly seats = new LRUCache<number, SeatForBooking>({ max: SEATS });
  /** Moves on with every forgetting: a read that saw it move may be stale, and is not kept. */
  private generation = 0;

  constructor(private readonly feed: ChangeFeed) {
    feed.subscribeCache((message) => {
      if (message !== null && message !== '*') return;
      this.generation++;
      this.seats.clear();
    });
  }

  /** The lookup for one request: `heard` is its barrier (`request.changesHeard`). */
  lookup(db: Queryable, heard: () => Promise<boolean>): SeatLookup {
    return async (ids) => {
      if (ids.every((id) => this.seats.has(id)) && (await heard())) {
        const known = ids.map((id) => this.seats.get(id));
        if (known.every((seat) => seat !== undefined)) return known;
      }
      const markedAt = this.generation;
      const rows = await findActiveSeats(db, ids);
      if (markedAt === this.generation && this.feed.connected)
        for (const seat of rows) this.seats.set(seat.id, seat);
      return rows;
    };
  }
}

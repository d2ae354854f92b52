import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../plugins/changes';

/** Bound on remembered answers (seat-days and searches, per role and customer). */
const ANSWERS = 5000;
/**
 * And on their text: a parallel search's answer is ~60 KB, so 5000 of them would be 300 MB and
 * hold the server past its 250 MB memory budget under a varied load (issue 14).
 */
const ANSWER_BYTES = 24 * 2 ** 20;

type Answer = { json: string; second: number; locationId: number; at: number };

/**
 * Availability answers as JSON text, computed once and kept in memory (decision 0036). An answer
 * is given again only within the second it was computed in (slots turn past with the clock), and
 * only after the change feed's barrier showed that no reservation of its location, and no
 * seat, location or race change, was announced since its computation began: a booking committed
 * on any instance before a request is never shown free by it. Without the feed, nothing is kept.
 */
export class AnswerCache {
  private readonly answers = new LRUCache<string, Answer>({
    max: ANSWERS,
    maxSize: ANSWER_BYTES,
    // JavaScript strings of this JSON are one byte a character (Latin-1), plus the key.
    sizeCalculation: (answer, key) => answer.json.length + key.length + 64,
  });
  /** Each announcement's number; a location's last one, and the last that touched everything. */
  private stamp = 0;
  private everything = 0;
  private readonly locationChanged = new Map<number, number>();
  /** Which location a seat belongs to, as learnt from computed answers. */
  private readonly seatLocation = new Map<number, number>();

  constructor(private readonly feed: ChangeFeed) {
    feed.subscribeCache((message) => this.forget(message));
  }

  /**
   * The remembered answer for `key`, or `compute`'s (remembered for the next callers); `heard` is
   * the request's barrier (`request.changesHeard`).
   */
  async answer(
    key: string,
    heard: () => Promise<boolean>,
    compute: () => Promise<{ value: unknown; locationId: number; seatIds: number[] }>,
  ): Promise<string> {
    const second = Math.floor(Date.now() / 1000);
    const known = this.answers.get(key);
    if (known && known.second === second && (await heard()) && this.fresh(known)) return known.json;
    const at = this.stamp;
    const { value, locationId, seatIds } = await compute();
    for (const id of seatIds) this.seatLocation.set(id, locationId);
    const json = JSON.stringify(value);
    if (this.feed.connected) this.answers.set(key, { json, second, locationId, at });
    return json;
  }

  private fresh(answer: Answer): boolean {
    return (
      this.everything <= answer.at &&
      (this.locationChanged.get(answer.locationId) ?? 0) <= answer.at
    );
  }

  private forget(message: string | null) {
    if (message !== null && message !== '*' && !message.startsWith('s:')) return;
    this.stamp++;
    const location = message?.startsWith('s:')
      ? this.seatLocation.get(Number(message.slice(2)))
      : undefined;
    if (location === undefined) {
      this.everything = this.stamp;
      if (message !== null && message.startsWith('s:')) return;
      this.answers.clear();
      this.seatLocation.clear();
    } else {
      this.locationChanged.set(location, this.stamp);
    }
  }
}

import { LRUCache } from 'lru-cache';

/**
 * Answers computed once and kept for a while, per key, until `clear()`. A computation that began
 * before a `clear()` gives its answer to its caller but does not keep it: it may have read the
 * data the clear was about before that data changed (a board read started just before a lap's
 * commit would otherwise stay the board's answer until it expires).
 *
 * Callers that arrive while a key's answer is being computed share that computation, unless a
 * `clear()` came between its start and their arrival: when a busy board's answer expires, the
 * requests of the next few milliseconds wait for one query instead of each sending their own.
 */
export class GenerationMemo<V extends object> {
  private generation = 0;
  private readonly answers: LRUCache<string, V>;
  private readonly pending = new Map<string, { generation: number; answer: Promise<V> }>();

  constructor(options: { max: number; ttlMs: number }) {
    this.answers = new LRUCache<string, V>({ max: options.max, ttl: options.ttlMs });
  }

  /** The kept answer for `key`, if there is one: no promise, no waiting. */
  known(key: string): V | undefined {
    return this.answers.get(key);
  }

  get(key: string, compute: () => Promise<V>): Promise<V> {
    const known = this.answers.get(key);
    if (known) return Promise.resolve(known);
    const under = this.pending.get(key);
    if (under && under.generation === this.generation) return under.answer;
    const began = this.generation;
    const answer = compute().then(
      (value) => {
        if (this.generation === began) this.answers.set(key, value);
        this.settled(key, answer);
        return value;
      },
      (error: unknown) => {
        this.settled(key, answer);
        throw error;
      },
    );
    this.pending.set(key, { generation: began, answer });
    return answer;
  }

  private settled(key: string, answer: Promise<V>) {
    if (this.pending.get(key)?.answer === answer) this.pending.delete(key);
  }

  clear(): void {
    this.generation++;
    this.answers.clear();
  }
}

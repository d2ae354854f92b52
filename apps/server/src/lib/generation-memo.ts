import { LRUCache } from 'lru-cache';

/**
 * Answers computed once and kept for a while, per key, until `clear()`. A computation that began
 * before a `clear()` gives its answer to its caller but does not keep it: it may have read the
 * data the clear was about before that data changed (a board read started just before a lap's
 * commit would otherwise stay the board's answer until it expires).
 */
export class GenerationMemo<V extends object> {
  private generation = 0;
  private readonly answers: LRUCache<string, V>;

  constructor(options: { max: number; ttlMs: number }) {
    this.answers = new LRUCache<string, V>({ max: options.max, ttl: options.ttlMs });
  }

  async get(key: string, compute: () => Promise<V>): Promise<V> {
    const known = this.answers.get(key);
    if (known) return known;
    const began = this.generation;
    const value = await compute();
    if (this.generation === began) this.answers.set(key, value);
    return value;
  }

  clear(): void {
    this.generation++;
    this.answers.clear();
  }
}

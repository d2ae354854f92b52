import type { VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../db/client';
import type { ChangeFeed } from './changes';
import { getSettings } from './settings';

/**
 * The venue settings, parsed once (mergeSettings) and kept in memory for the booking write path
 * (decision 0103: the booking statement takes the unpaid limit as a parameter, so it reads no
 * stored JSON itself), made safe as the seat cache is (decision 0036): a trigger announces every
 * write to them (`*`, migration 0045) and the copy is forgotten; a remembered copy is
 * used only after the request's barrier showed every announcement committed before it was heard.
 * Without the change feed nothing is kept.
 */
export class SettingsCache {
  private settings: VenueSettings | null = null;
  /** Moves on with every forgetting: a read that saw it move may be stale, and is not kept. */
  private generation = 0;

  constructor(private readonly feed: ChangeFeed) {
    feed.subscribeCache((message) => {
      if (message !== null && message !== '*') return;
      this.generation++;
      this.settings = null;
    });
  }

  /** The lookup for one request: `heard` is its barrier (`request.changesHeard`). */
  lookup(db: Db, heard: () => Promise<boolean>): () => Promise<VenueSettings> {
    return async () => {
      if (this.settings && (await heard()) && this.settings) return this.settings;
      const markedAt = this.generation;
      const read = await getSettings(db);
      if (markedAt === this.generation && this.feed.connected) this.settings = read;
      return read;
    };
  }
}

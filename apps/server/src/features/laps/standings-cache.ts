import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../plugins/changes';
import type { Season, SeasonLookup } from './points-season';

type Kept = { signature: string; freshUntil: number; season: Season };

/** Boards kept at most: a season of a chain's board is ~1 100 racers, a few hundred KB. */
const KEPT_BOARDS = 50;

/**
 * POINTS boards' seasons, ranked once and kept in memory per board (decision 0109: a chain's
 * season is two thousand finishes to read and rank, ~11 ms a call, issue 33), made safe as the
 * seat and settings caches are (decision 0036): a trigger announces every write to race sessions
 * and results (`r`, migration 0052) and every kept season is forgotten; a kept one is used only
 * after the request's barrier showed every announcement committed before it was heard, only
 * while the board's rules and scope are the ones it was ranked by, and only until a rolling
 * frame's oldest session leaves the frame. Without the change feed nothing is kept.
 */
export class StandingsCache {
  private readonly kept = new LRUCache<number, Kept>({ max: KEPT_BOARDS });
  /** Moves on with every forgetting: a season read while it moved may be stale, and is not kept. */
  private generation = 0;

  constructor(private readonly feed: ChangeFeed) {
    feed.subscribeCache((message) => {
      if (message !== null && message !== '*' && message !== 'r') return;
      this.generation++;
      this.kept.clear();
    });
  }

  /** The lookup for one request: `heard` is its barrier (`request.changesHeard`). */
  lookup(heard: () => Promise<boolean>): SeasonLookup {
    return async (boardId, signature, now, compute) => {
      const known = this.kept.get(boardId);
      if (
        known?.signature === signature &&
        now.getTime() <= known.freshUntil &&
        (await heard()) &&
        this.kept.get(boardId) === known
      )
        return known.season;
      const markedAt = this.generation;
      const { season, freshUntil } = await compute();
      if (markedAt === this.generation && this.feed.connected)
        this.kept.set(boardId, { signature, freshUntil, season });
      return season;
    };
  }
}

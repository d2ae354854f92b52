// Where a dedicated server's live feed goes besides the laps (decision 0122): the event's timing
// tower and, when FEED_RECORD_DIR is set, a recording of the raw datagrams.
import fs from 'node:fs';
import path from 'node:path';
import { FeedRecorder } from '@paddock/ac-protocol/feed-recording';
import type { RaceEvent } from '@paddock/contract/races';
import { seatDriverName, type ServerRaceLookups } from '../ac-server/server-race';
import type { TimingTower } from '@paddock/contract/live-timing';
import type { LiveTimingHub } from './timing-hub';

export interface LiveFeed {
  timing?: LiveTimingHub;
  recordDir?: string;
}

/**
 * A server started for this event: its tower opens with who sits in each car (the car id is the
 * seat's place in the entry list, as both sims' links number them), and its recording starts.
 */
export function liveFeedOf(
  live: LiveFeed,
  event: RaceEvent,
  lookups: ServerRaceLookups,
  sim: 'ac' | 'acc',
  note: string,
  onFinal?: (tower: TimingTower) => Promise<void>,
): { recorder: FeedRecorder | null } {
  live.timing?.open(
    event.id,
    sim,
    event.entries.map((e, car) => ({
      car,
      driver: seatDriverName(lookups, e),
      team: '',
      model: lookups.carNames?.[e.car ?? event.cars[0]] ?? '',
    })),
    onFinal,
  );
  if (!live.recordDir) return { recorder: null };
  fs.mkdirSync(live.recordDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(live.recordDir, `${sim}-event-${event.id}-${stamp}.feed.jsonl`);
  return { recorder: new FeedRecorder(file, { sim, note }) };
}

// A recorded feed played into an event's tower (decision 0122): for a demo on the wall, and for
// the journeys, which run no dedicated server. The datagrams go through the same translations
// as a live server's; a replay stores no laps and no result (it is not a race that happened now).
import { decodeServerMessage } from '@paddock/ac-protocol/codec';
import { decodeAccInbound } from '@paddock/ac-protocol/acc/broadcasting';
import { parseFeed, playFeed, type FeedRecording } from '@paddock/ac-protocol/feed-recording';
import type { TimingReplayRequest } from '@paddock/contract/live-timing';
import type { Db } from '../../db/client';
import { HttpError, ValidationError } from '../../plugins/errors';
import { getEvent } from '../races/load-events';
import { serverLookups } from '../ac-server/server-lookups';
import { liveFeedOf } from './live-feed';
import { acTimingEvents, accTimingEvents, newAccTimingMemory } from './sim-events';
import type { LiveTimingHub } from './timing-hub';

export async function replayFeed(
  db: Db,
  hub: LiveTimingHub,
  eventId: number,
  body: TimingReplayRequest,
  logError: (err: unknown) => void,
) {
  const event = await getEvent(db, eventId);
  let recording: FeedRecording;
  try {
    recording = parseFeed(body.recording);
  } catch (err) {
    throw ValidationError.field('recording', `${(err as Error).message}`);
  }
  if (hub.follows(eventId))
    throw new HttpError(
      409,
      'This event’s tower follows a feed already: wait for it to end.',
      'timing_busy',
    );
  const sim = recording.header.sim;
  liveFeedOf({ timing: hub }, event, await serverLookups(db, event), sim, 'replay');
  const mem = newAccTimingMemory();
  const seats = new Map<number, number>();
  const feed = (datagram: Buffer) => {
    if (sim === 'ac') {
      const m = decodeServerMessage(datagram);
      if (m.ok) hub.feed(eventId, acTimingEvents(m.message));
      return;
    }
    const m = decodeAccInbound(datagram);
    if (!m.ok) return;
    if (m.message.type === 'ENTRY_LIST_CAR')
      seats.set(m.message.carIndex, m.message.raceNumber - 1);
    hub.feed(
      eventId,
      accTimingEvents(m.message, mem, (car) => seats.get(car)),
    );
  };
  // Played in the background: the answer says it started.
  void playFeed(recording, async (d) => feed(d), { speed: body.speed })
    .then(() => hub.close(eventId))
    .catch(logError);
  return { sim, datagrams: recording.datagrams.length };
}

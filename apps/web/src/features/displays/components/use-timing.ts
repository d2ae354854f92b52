import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useChangeFeed } from '../../../lib/use-change-feed';
import { timingQuery } from '../api/timing-query';

/** The event's tower, fetched again as soon as the change feed says it changed (any instance). */
export function useTiming(eventId: number) {
  const client = useQueryClient();
  const tower = useQuery({ ...timingQuery(eventId), enabled: Number.isInteger(eventId) });
  const feed = useChangeFeed(
    ['timing'],
    (change) => {
      if (change.id === eventId) void client.invalidateQueries({ queryKey: ['timing', eventId] });
    },
    // Back after a gap: what changed meanwhile is unknown.
    { onHello: () => void client.invalidateQueries({ queryKey: ['timing', eventId] }) },
  );
  return { tower, offlineSince: feed.offlineSince };
}

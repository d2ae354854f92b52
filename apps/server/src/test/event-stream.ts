import http from 'node:http';
import { until } from './until';

export type StreamEvent = { id: number; data: { topic: string; id: number | null } };
export type Stream = {
  /** Changes (frames with an id). */
  events: StreamEvent[];
  /** Named frames without an id (`hello`, `ping`): their event name and parsed data. */
  signals: { event: string; data: unknown }[];
  /** Whether the server ended the stream. */
  readonly ended: boolean;
  close: () => void;
};

/** Opens a server-sent event stream on a listening server and collects what it sends. */
export function listen(url: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const events: Stream['events'] = [];
    const signals: Stream['signals'] = [];
    const req = http.get(url, { headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      let buffer = '';
      res.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = frame.match(/^id: (\d+)$/m)?.[1];
          const event = frame.match(/^event: (.*)$/m)?.[1];
          const data = frame.match(/^data: (.*)$/m)?.[1];
          if (id && data) events.push({ id: Number(id), data: JSON.parse(data) });
          else if (event && data) signals.push({ event, data: JSON.parse(data) });
        }
      });
      let ended = false;
      res.on('end', () => (ended = true));
      resolve({
        events,
        signals,
        get ended() {
          return ended;
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', () => {});
  });
}

/**
 * Waits for the stream's first frame, `hello`: the server writes it in the same turn as it
 * subscribes the stream to the change feed, so a change committed after this is heard (no
 * sleep for LISTEN).
 */
export const subscribed = (stream: Stream) =>
  until(() => stream.signals.some((s) => s.event === 'hello'), { what: 'the hello frame' });

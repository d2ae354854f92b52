import { useEffect, useRef, useState } from 'react';
import { getSession } from './auth-store';

export type Change = { seq: number; topic: string; id: number | null };
/** The server's first word on every connection: the build it serves and this screen's id. */
export type Hello = { build: string | null; screen_id: number | null };

/** Spec (issue 10): the badge shows after 30 s without a heartbeat (the server sends one every 15 s). */
export const OFFLINE_AFTER_MS = 30_000;
/** Reconnect delays grow from 1 s to 30 s, each with jitter so screens do not return in step. */
export const BACKOFF = { firstMs: 1_000, maxMs: 30_000 };

/** The delay before reconnect attempt `attempt` (0-based): doubling with ±25 % jitter, at most 30 s. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** attempt);
  return Math.min(BACKOFF.maxMs, Math.round(base * (0.75 + random() * 0.5)));
}

export type FeedOptions = {
  /** A wall screen's name: the server lists it for staff. */
  screen?: string;
  /** What the screen shows, reported with its name. */
  path?: string;
  /** The build this page runs, reported with the screen's name. */
  build?: string | null;
  /** Send the session (staff topics such as reservations need it). */
  auth?: boolean;
  /** A rig's key instead (the rig screen follows its own seat's bookings, decision 0120). */
  rigKey?: string;
  onHello?: (hello: Hello, reconnected: boolean) => void;
};

export type FeedState = {
  /** When the last heartbeat was heard, while the feed is considered offline; else null. */
  offlineSince: Date | null;
};

export type SseFrame = { event: string; data: string; id: string | null };

/** Splits server-sent-event text into complete frames; returns them and the unfinished rest. */
export function parseSse(buffer: string): { frames: SseFrame[]; rest: string } {
  const frames: SseFrame[] = [];
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length) frames.push({ event, data: data.join('\n'), id });
  }
  return { frames, rest };
}

/**
 * Follows the server's change feed (`/api/events`, server-sent events read with fetch, so a
 * staff session can go along). Reconnects with backoff and jitter after an error or 30 s of
 * silence, resuming from the last event id so nothing is missed, and says since when it has
 * been offline.
 */
export function useChangeFeed(
  topics: string[],
  onChange: (change: Change) => void,
  options: FeedOptions = {},
): FeedState {
  const handlers = useRef({ onChange, onHello: options.onHello });
  useEffect(() => {
    handlers.current = { onChange, onHello: options.onHello };
  });
  const [offlineSince, setOfflineSince] = useState<Date | null>(null);
  const key = topics.join(',');
  const { screen, path, build, auth = false, rigKey } = options;

  useEffect(() => {
    if (key === '') return;
    let controller: AbortController | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let lastId: string | null = null;
    let lastBeat = Date.now();
    let openedAt = Date.now();
    let greeted = false;
    let stopped = false;

    const beat = () => {
      lastBeat = Date.now();
      setOfflineSince(null);
    };
    const handle = (frame: SseFrame) => {
      beat();
      try {
        if (frame.event === 'hello') {
          attempt = 0;
          handlers.current.onHello?.(JSON.parse(frame.data) as Hello, greeted);
          greeted = true;
        } else if (frame.event === 'change') {
          if (frame.id) lastId = frame.id;
          handlers.current.onChange(JSON.parse(frame.data) as Change);
        }
      } catch {
        /* not ours */
      }
    };
    const connect = async () => {
      retry = null;
      const query = new URLSearchParams({ topics: key });
      if (lastId) query.set('last_event_id', lastId);
      if (screen) query.set('screen', screen);
      if (screen && path) query.set('path', path);
      if (screen && build) query.set('build', build);
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      const token = auth ? getSession()?.token : undefined;
      if (token) headers.Authorization = `Bearer ${token}`;
      if (rigKey) headers.Authorization = `Rig ${rigKey}`;
      const mine = new AbortController();
      controller = mine;
      openedAt = Date.now();
      try {
        const response = await fetch(`/api/events?${query}`, { headers, signal: mine.signal });
        if (!response.ok || !response.body) throw new Error(`feed ${response.status}`);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseSse(buffer + value);
          buffer = parsed.rest;
          parsed.frames.forEach(handle);
        }
      } catch {
        /* refused, cut or aborted: below */
      }
      if (controller === mine) reconnect();
    };
    const reconnect = () => {
      controller?.abort();
      controller = null;
      if (stopped || retry) return;
      retry = setTimeout(() => void connect(), backoffDelay(attempt++));
    };
    const watchdog = setInterval(() => {
      if (Date.now() - lastBeat < OFFLINE_AFTER_MS) return;
      setOfflineSince((since) => since ?? new Date(lastBeat));
      // A connection silent for as long (a dropped Wi-Fi can leave one open) is replaced.
      if (controller && Date.now() - openedAt >= OFFLINE_AFTER_MS) reconnect();
    }, 5_000);
    void connect();
    return () => {
      stopped = true;
      clearInterval(watchdog);
      if (retry) clearTimeout(retry);
      const open = controller;
      controller = null;
      open?.abort();
    };
  }, [key, screen, path, build, auth, rigKey]);

  return { offlineSince };
}

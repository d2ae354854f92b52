import { useCallback, useEffect, useRef, useState } from 'react';
import { SOCKET_CLOSE_NO_EVENT, SOCKET_RETRY_MS } from '@paddock/contract/races';
import { ApiError, api } from '../../lib/api-client';

export type SocketStatus = 'connecting' | 'open' | 'disconnected' | 'closed';

/** A message on the event socket: `type` says what it is, `data` carries it. */
export type SocketMessage = { type: string; data?: unknown; [key: string]: unknown };

export type EventSocketOptions<E> = {
  /** Where the socket lives (`ws://host:port`); the page's own origin by default. */
  origin?: string;
  /** The first message on every connection (`model_updated` with the whole event). */
  onEvent?: (event: E) => void;
  /** Every message after it is applied (updates, host signals, peer messages of type `server`). */
  onMessage?: (message: SocketMessage) => void;
};

export type EventSocket<E> = {
  /** The event as last heard: the connect message, with every `model_updated` merged in. */
  event: E | null;
  status: SocketStatus;
  /** Sends a message; false when the socket is not open. */
  send: (message: SocketMessage) => boolean;
  /** Closes on purpose: no reconnect until the event (or the page) changes. */
  close: () => void;
};

type Ticket = { ticket: string; expires_in: number };

export function socketOrigin(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`;
}

/** `{"type":"model_updated","data":{…}}` merges its fields into the event (spec staff §4). */
export function mergeEvent<E>(event: E | null, data: unknown): E | null {
  if (!event || !data || typeof data !== 'object') return event;
  return { ...event, ...(data as Partial<E>) };
}

function isMessage(value: unknown): value is SocketMessage {
  return (
    !!value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
  );
}

/**
 * The live socket of one race event (`/ws/launcher/events/{id}/`). The browser cannot send a
 * header on a WebSocket, so each (re)connect first asks for a short-lived one-time ticket and
 * puts that in the address, never the session token. The first message is the whole event as a
 * `model_updated`; later `model_updated` messages carry only changed fields and are merged in. A dropped
 * socket (or a failed ticket call) tries again after 2 s; `close()`, unmounting, an event that
 * is gone (close code 4404, or a 404 for the ticket) and a 401/403 do not.
 */
export function useEventSocket<E extends object>(
  eventId: number | null,
  options: EventSocketOptions<E> = {},
): EventSocket<E> {
  const [event, setEvent] = useState<E | null>(null);
  const [status, setStatus] = useState<SocketStatus>('connecting');
  // Another event starts from nothing (adjusted while rendering, not in the effect).
  const [shownId, setShownId] = useState(eventId);
  if (shownId !== eventId) {
    setShownId(eventId);
    setEvent(null);
    setStatus('connecting');
  }
  const handlers = useRef(options);
  useEffect(() => {
    handlers.current = options;
  });
  const socketRef = useRef<WebSocket | null>(null);
  const stopRef = useRef<() => void>(() => {});
  const origin = options.origin;

  useEffect(() => {
    if (eventId === null) return;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let socket: WebSocket | null = null;
    const schedule = () => {
      if (stopped || retry) return;
      setStatus('disconnected');
      retry = setTimeout(() => {
        retry = null;
        void connect();
      }, SOCKET_RETRY_MS);
    };

    const giveUp = () => {
      stopped = true;
      setStatus('closed');
    };

    const connect = async () => {
      if (stopped) return;
      let ticket: Ticket;
      try {
        ticket = await api<Ticket>(`/races/events/${eventId}/ticket`, { method: 'POST' });
      } catch (error) {
        // No such event, or no right to it: asking again will not help.
        if (error instanceof ApiError && [401, 403, 404].includes(error.status)) giveUp();
        else schedule();
        return;
      }
      if (stopped) return;
      const url = `${origin ?? socketOrigin()}/ws/launcher/events/${eventId}/?ticket=${encodeURIComponent(ticket.ticket)}`;
      let ws: WebSocket;
      try {
        ws = new WebSocket(url);
      } catch {
        schedule();
        return;
      }
      socket = ws;
      socketRef.current = ws;
      let first = true;
      ws.onopen = () => {
        if (socket === ws) setStatus('open');
      };
      ws.onmessage = (message) => {
        if (socket !== ws) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(message.data));
        } catch {
          return;
        }
        if (!isMessage(parsed)) return;
        if (parsed.type === 'model_updated' && parsed.data && typeof parsed.data === 'object') {
          // The first message of every connection is the whole event: it replaces what we had.
          const whole = first;
          first = false;
          if (whole) {
            setEvent(parsed.data as E);
            handlers.current.onEvent?.(parsed.data as E);
          } else {
            setEvent((current) => mergeEvent(current, parsed.data));
          }
        }
        handlers.current.onMessage?.(parsed);
      };
      ws.onclose = (closed) => {
        if (socket !== ws) return;
        socket = null;
        socketRef.current = null;
        if (stopped) setStatus('closed');
        // The event is gone (its party ended): nothing to come back to.
        else if (closed.code === SOCKET_CLOSE_NO_EVENT) giveUp();
        else schedule();
      };
      // An error is always followed by close, which decides about the retry.
      ws.onerror = () => {};
    };

    const stop = () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const open = socket;
      socket = null;
      socketRef.current = null;
      if (!open) return;
      // Closing a socket that is still connecting logs an error in Chromium: wait for it.
      if (open.readyState === WebSocket.CONNECTING) open.onopen = () => open.close(1000);
      else open.close(1000);
    };
    stopRef.current = () => {
      stop();
      setStatus('closed');
    };
    void connect();
    return stop;
  }, [eventId, origin]);

  const send = useCallback((message: SocketMessage) => {
    const ws = socketRef.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }, []);
  const close = useCallback(() => stopRef.current(), []);

  return { event, status, send, close };
}

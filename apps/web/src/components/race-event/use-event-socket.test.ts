import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { AddressInfo } from 'node:net';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { setToken } from '../../lib/auth-store';
import { fakeToken, stubApi } from '../../test/api-stub';
import { SOCKET_RETRY_MS } from '@paddock/contract/races';
import { useEventSocket, type SocketMessage } from './use-event-socket';

type Event = { id: number; track: number | null; drift_mode: boolean };
const EVENT: Event = { id: 12, track: 3, drift_mode: false };

/** A real WebSocket server standing in for `/ws/launcher/events/{id}/`. */
let server: WebSocketServer;
let origin: string;
let connections: { socket: ServerSocket; url: string; at: number }[];
let tickets: number;

beforeEach(async () => {
  connections = [];
  tickets = 0;
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  origin = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', (socket, request) => {
    connections.push({ socket, url: request.url ?? '', at: Date.now() });
    socket.send(JSON.stringify({ type: 'model_updated', data: EVENT }));
  });
  // jsdom's Event and Node's undici WebSocket do not mix; `ws` speaks the browser's API.
  vi.stubGlobal('WebSocket', NodeWebSocket);
  setToken(fakeToken(1));
  stubApi({
    'POST /api/races/events/12/ticket': () => ({
      status: 201,
      body: { ticket: `t-${++tickets}`, expires_in: 30 },
    }),
  });
});

afterEach(async () => {
  for (const c of server.clients) c.terminate();
  await new Promise((resolve) => server.close(resolve));
});

const lastSocket = () => connections[connections.length - 1].socket;

describe('useEventSocket', () => {
  it('connects with a one-time ticket, starts from the event and merges model_updated', async () => {
    const messages: SocketMessage[] = [];
    const { result, unmount } = renderHook(() =>
      useEventSocket<Event>(12, { origin, onMessage: (m) => messages.push(m) }),
    );
    await waitFor(() => expect(result.current.status).toBe('open'));
    await waitFor(() => expect(result.current.event).toEqual(EVENT));
    expect(connections[0].url).toBe('/ws/launcher/events/12/?ticket=t-1');

    act(() => {
      lastSocket().send(JSON.stringify({ type: 'model_updated', data: { drift_mode: true } }));
      lastSocket().send(JSON.stringify({ type: 'server', data: { text: 'hello' }, from: 4 }));
    });
    await waitFor(() => expect(result.current.event).toEqual({ ...EVENT, drift_mode: true }));
    await waitFor(() =>
      expect(messages).toContainEqual({ type: 'server', data: { text: 'hello' }, from: 4 }),
    );

    const received = new Promise<string>((resolve) =>
      lastSocket().once('message', (data) => resolve(String(data))),
    );
    const signal = { type: 'signal', signal: 'SESSION_START', excluded_calendars: [4] };
    expect(result.current.send(signal)).toBe(true);
    expect(JSON.parse(await received)).toEqual(signal);
    unmount();
  });

  it('reconnects 2 s after a drop, with a fresh ticket, and says it is disconnected meanwhile', async () => {
    const { result, unmount } = renderHook(() => useEventSocket<Event>(12, { origin }));
    await waitFor(() => expect(result.current.status).toBe('open'));
    const droppedAt = Date.now();
    act(() => lastSocket().terminate());
    await waitFor(() => expect(result.current.status).toBe('disconnected'));
    await waitFor(() => expect(connections).toHaveLength(2), { timeout: SOCKET_RETRY_MS + 2_000 });
    const waited = connections[1].at - droppedAt;
    expect(waited).toBeGreaterThanOrEqual(SOCKET_RETRY_MS - 50);
    expect(waited).toBeLessThan(SOCKET_RETRY_MS + 1_500);
    expect(connections[1].url).toBe('/ws/launcher/events/12/?ticket=t-2');
    await waitFor(() => expect(result.current.status).toBe('open'));
    unmount();
  });

  it('does not reconnect once closed on purpose, nor after unmounting', async () => {
    const { result, unmount } = renderHook(() => useEventSocket<Event>(12, { origin }));
    await waitFor(() => expect(result.current.status).toBe('open'));
    act(() => result.current.close());
    expect(result.current.status).toBe('closed');
    await new Promise((r) => setTimeout(r, SOCKET_RETRY_MS + 500));
    expect(connections).toHaveLength(1);
    expect(result.current.send({ type: 'RELOAD' })).toBe(false);
    unmount();

    const second = renderHook(() => useEventSocket<Event>(12, { origin }));
    await waitFor(() => expect(second.result.current.status).toBe('open'));
    second.unmount();
    await new Promise((r) => setTimeout(r, SOCKET_RETRY_MS + 500));
    expect(connections).toHaveLength(2);
  }, 15_000);

  it('tries again 2 s later when the ticket is refused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let refuse = true;
      stubApi({
        'POST /api/races/events/12/ticket': () =>
          refuse
            ? { status: 503, body: { detail: 'Busy' } }
            : { status: 201, body: { ticket: 'late', expires_in: 30 } },
      });
      const { result, unmount } = renderHook(() => useEventSocket<Event>(12, { origin }));
      await waitFor(() => expect(result.current.status).toBe('disconnected'));
      refuse = false;
      await act(() => vi.advanceTimersByTimeAsync(SOCKET_RETRY_MS));
      await waitFor(() => expect(result.current.status).toBe('open'));
      expect(connections[0].url).toContain('ticket=late');
      unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up on an event that is gone (close 4404) or a ticket refused with 403', async () => {
    const { result, unmount } = renderHook(() => useEventSocket<Event>(12, { origin }));
    await waitFor(() => expect(result.current.status).toBe('open'));
    act(() => lastSocket().close(4404, 'No such event'));
    await waitFor(() => expect(result.current.status).toBe('closed'));
    await new Promise((r) => setTimeout(r, SOCKET_RETRY_MS + 300));
    expect(connections).toHaveLength(1);
    unmount();

    stubApi({ 'POST /api/races/events/12/ticket': { status: 403, body: { detail: 'No.' } } });
    const refused = renderHook(() => useEventSocket<Event>(12, { origin }));
    await waitFor(() => expect(refused.result.current.status).toBe('closed'));
    refused.unmount();
  }, 10_000);
});

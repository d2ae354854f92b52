import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { RigState, RigTile as Tile } from '@paddock/contract/rig-map';
import { RigTile } from './rig-tile';
import { freeSeatsFor } from './rig-words';

const NOW = Date.parse('2030-12-06T18:10:00-08:00');
const ZONE = 'America/Los_Angeles';
const session = (starts: string, ends: string, name: string | null = 'Flying Ada') => ({
  reservation: 11,
  now_reservation: 11,
  customer: 5,
  name,
  starts: `2030-12-06T${starts}:00-08:00`,
  ends: `2030-12-06T${ends}:00-08:00`,
  paid: true,
  club: false,
});
const tile = (state: RigState, extra: Partial<Tile> = {}): Tile => ({
  calendar: 3,
  calendar_name: 'Cockpit 3',
  state,
  rig_connected: state !== 'offline',
  sim_launched: state === 'in_session',
  event: 103,
  party_name: null,
  event_seats: [],
  current: state === 'in_session' || state === 'sim_not_running' ? session('18:00', '19:00') : null,
  next: null,
  health: { agent_version: null, last_seen: null, sim_running: null, disk_free_bytes: null },
  offline_alert: false,
  ...extra,
});

function show(t: Tile, opts: { canSignal?: boolean; onMove?: (t: Tile) => void } = {}) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <RigTile
          tile={t}
          zone={ZONE}
          nowMs={NOW}
          canSignal={opts.canSignal ?? true}
          canOpenCustomer
          plannerLink="/admin/seats?date=2030-12-06"
          onMove={opts.onMove ?? (() => {})}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return within(screen.getByRole('article', { name: 'Cockpit 3' }));
}

describe('a rig map tile', () => {
  it('in session: who, the time left, paid, and every action', async () => {
    const onMove = vi.fn();
    const card = show(tile('in_session'), { onMove });
    expect(card.getByText('In session')).toBeTruthy();
    expect(card.getByText('Flying Ada')).toBeTruthy();
    expect(card.getByText('50 min left')).toBeTruthy();
    expect(card.getByText('(until 7:00 PM)')).toBeTruthy();
    expect(card.getByText('Paid')).toBeTruthy();
    for (const name of ['Start Cockpit 3', 'End Cockpit 3', 'Move the customer on Cockpit 3'])
      expect(card.getByRole('button', { name }).hasAttribute('disabled')).toBe(false);
    expect(card.getByRole('link', { name: 'Customer on Cockpit 3' }).getAttribute('href')).toBe(
      '/admin/user/5',
    );
    await userEvent.click(card.getByRole('button', { name: 'Move the customer on Cockpit 3' }));
    expect(onMove).toHaveBeenCalledOnce();
  });

  it('offline: Start and End cannot be pressed, and the alert says since when', () => {
    const card = show(
      tile('offline', {
        offline_alert: true,
        health: {
          agent_version: '1.4.0',
          last_seen: '2030-12-06T18:02:00-08:00',
          sim_running: false,
          disk_free_bytes: 42e9,
        },
      }),
    );
    expect(card.getByText('Rig offline')).toBeTruthy();
    expect(card.getByText('Offline for 8 min during opening hours.')).toBeTruthy();
    expect(card.getByText('Agent 1.4.0 · Last seen 6:02 PM · 42 GB free')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Start Cockpit 3' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(card.getByRole('button', { name: 'End Cockpit 3' }).hasAttribute('disabled')).toBe(true);
    expect(card.getByText('No rig connected: Start and End do not reach it.')).toBeTruthy();
  });

  it('says each other state in words', () => {
    const words: [RigState, string][] = [
      ['idle', 'Idle'],
      ['starting', 'Starting'],
      ['sim_not_running', 'Sim not running'],
      ['out_of_service', 'Out of service'],
    ];
    for (const [state, label] of words) {
      const card = show(tile(state));
      expect(card.getByText(label)).toBeTruthy();
      if (state === 'out_of_service')
        expect(card.queryByRole('button', { name: /Start/ })).toBeNull();
      if (state === 'idle') expect(card.getByText('Nobody booked now.')).toBeTruthy();
      if (state === 'idle')
        expect(card.queryByText('The sim is running with nobody booked.')).toBeNull();
      document.body.innerHTML = '';
    }
  });

  it('says when the sim runs with nobody booked (End it)', () => {
    const card = show(tile('idle', { sim_launched: true }));
    expect(card.getByText('The sim is running with nobody booked.')).toBeTruthy();
    expect(card.getByRole('button', { name: 'End Cockpit 3' })).toBeTruthy();
  });

  it('a party seat starts alone and ends with its party on the launcher; no signals without the launcher permission', () => {
    let card = show(tile('idle', { party_name: 'Friday Race', event_seats: [4] }));
    expect(card.getByRole('button', { name: 'Start Cockpit 3' })).toBeTruthy();
    expect(card.queryByRole('button', { name: 'End Cockpit 3' })).toBeNull();
    expect(card.getByRole('link', { name: 'Launcher' })).toBeTruthy();
    document.body.innerHTML = '';
    card = show(tile('in_session'), { canSignal: false });
    expect(card.queryByRole('button', { name: 'Start Cockpit 3' })).toBeNull();
    expect(card.getByRole('button', { name: 'Move the customer on Cockpit 3' })).toBeTruthy();
  });

  it('offers the seats free for the rest of the session, connected rigs first', () => {
    const from = tile('in_session');
    const map = {
      location: 1,
      location_name: 'Track House',
      timezone: ZONE,
      now: new Date(NOW).toISOString(),
      open_now: true,
      tiles: [
        from,
        tile('offline', { calendar: 4, calendar_name: 'Cockpit 4' }),
        tile('idle', { calendar: 5, calendar_name: 'Cockpit 5' }),
        tile('idle', {
          calendar: 6,
          calendar_name: 'Cockpit 6',
          next: session('18:30', '19:00', 'Bob'),
        }),
        tile('out_of_service', { calendar: 7, calendar_name: 'Cockpit 7' }),
        tile('in_session', { calendar: 8, calendar_name: 'Cockpit 8' }),
      ],
    };
    expect(freeSeatsFor(map, from).map((t) => t.calendar_name)).toEqual(['Cockpit 5', 'Cockpit 4']);
  });
});

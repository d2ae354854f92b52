import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startProblem } from '@paddock/contract/races';
import { stubApi, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';

const STAFF = testUser({ id: 1, is_staff: true, location: 1 });
const seat = (id: number, name: string) => ({
  id,
  name,
  location: 1,
  event: 100 + id,
  cost_cents: 2500,
  cost_unit: '30 minutes',
  type: 1,
  type_name: 'Pro Cockpit',
  type_image: '',
  type_description: '',
  image: '',
});
const member = (calendar: number, isHost: boolean) => ({
  id: calendar,
  party: 5,
  calendar,
  calendar_name: `Cockpit ${calendar}`,
  user: null,
  is_host: isHost,
});
/** A seat's entry in the party's event; only Cockpit 1's rig agent is connected. */
const entry = (calendar: number, rigConnected: boolean) => ({
  id: calendar,
  event: 101,
  calendar,
  calendar_name: `Cockpit ${calendar}`,
  user: null,
  car: null,
  skin: null,
  exited: false,
  initialized: false,
  launched: false,
  state: 'none' as const,
  rig_connected: rigConnected,
});
const PARTY = {
  id: 5,
  location: 1,
  name: 'Friday Night Race',
  host_event: 101,
  host_calendar: 1,
  members: [member(1, true), member(2, false)],
  member_requests: [],
  starts_at: null,
  started: true,
  event: {
    id: 101,
    calendar: 1,
    party: 5,
    moved_to: null,
    track: 7,
    cars: [3],
    sessions: [],
    entries: [entry(1, true), entry(2, false)],
    preset: null,
    assists: [],
    penalties: false,
    fixed_setup: false,
    drift_mode: false,
  },
};

function open(handlers: Parameters<typeof stubApi>[0] = {}) {
  const calls = stubApi({
    'GET /api/users/1': { body: STAFF },
    'GET /api/locations': { body: [{ id: 1, name: 'Downtown' }] },
    'GET /api/calendars': {
      body: {
        count: 3,
        page_count: 1,
        page_size: 100,
        results: [seat(1, 'Cockpit 1'), seat(2, 'Cockpit 2'), seat(3, 'Cockpit 3')],
      },
    },
    'GET /api/races/parties': { body: [PARTY] },
    // No socket server here: every ticket call fails as in an outage, so each event says so.
    'POST /api/races/events/101/ticket': { status: 503, body: { detail: 'Unavailable.' } },
    'POST /api/races/events/103/ticket': { status: 503, body: { detail: 'Unavailable.' } },
    ...handlers,
  });
  renderApp('/admin/launcher', {
    user: STAFF,
    permissions: ['leaderboards.can_manage_race_events'],
  });
  return calls;
}

describe('/admin/launcher', () => {
  it('lists parties and single seats, and says plainly when an event is not live', async () => {
    open();
    const party = await screen.findByRole('article', { name: 'Friday Night Race' });
    const single = screen.getByRole('article', { name: 'Cockpit 3' });
    expect(screen.queryByRole('article', { name: 'Cockpit 2' })).toBeNull();
    await waitFor(() =>
      expect(within(party).getByRole('status')).toHaveTextContent('Disconnected, reconnecting…'),
    );
    await waitFor(() =>
      expect(within(single).getByRole('status')).toHaveTextContent('Disconnected, reconnecting…'),
    );
    expect(
      await screen.findByText(
        'Live updates are disconnected for Friday Night Race, Cockpit 3. Reconnecting every 2 seconds; states shown may be out of date.',
      ),
    ).toBeVisible();
  });

  it('starts a party without the seats left out, and one seat of it alone; names seats with no rig', async () => {
    const signals: { path: string; body: unknown }[] = [];
    open({
      'POST /api/races/events/101/signal': (r: StubRequest) => {
        signals.push({ path: r.path, body: r.body });
        const one = { calendar: 1, calendar_name: 'Cockpit 1' };
        const two = { calendar: 2, calendar_name: 'Cockpit 2' };
        const body = r.body as { signal: string; excluded_calendars?: number[] };
        if (body.signal === 'SESSION_EXIT')
          return {
            status: 202,
            body: {
              detail: 'Stop sent to Cockpit 1. Not sent to Cockpit 2: no rig connected.',
              sent_to: [one],
              not_connected: [two],
            },
          };
        return body.excluded_calendars?.includes(2)
          ? {
              status: 202,
              body: { detail: 'Start sent to Cockpit 1.', sent_to: [one], not_connected: [] },
            }
          : {
              status: 202,
              body: {
                detail: 'Start not sent: no rig connected at Cockpit 2.',
                sent_to: [],
                not_connected: [two],
              },
            };
      },
    });
    const party = await screen.findByRole('article', { name: 'Friday Night Race' });
    // Before Start: the seat without a rig agent says so, and the party line names it.
    const rows = within(party).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Rig connected');
    expect(rows[1]).toHaveTextContent('No rig connected');
    expect(
      within(party).getByText('No rig connected: Cockpit 2. Start does not reach it.'),
    ).toBeVisible();
    await userEvent.click(within(party).getByRole('checkbox', { name: /^Cockpit 2/ }));
    // Left out, it is no longer one Start misses.
    expect(within(party).queryByText(/^No rig connected: /)).toBeNull();
    await userEvent.click(
      within(party).getByRole('button', { name: /^Start\s?Friday Night Race$/ }),
    );
    await waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0].body).toEqual({ signal: 'SESSION_START', excluded_calendars: [2] });
    expect(await within(party).findByText('Start sent to Cockpit 1.')).toBeVisible();

    // Stop goes to every seat: only a start can leave seats out.
    await userEvent.click(
      within(party).getByRole('button', { name: /^Stop\s?Friday Night Race$/ }),
    );
    await waitFor(() => expect(signals).toHaveLength(2));
    expect(signals[1].body).toEqual({ signal: 'SESSION_EXIT' });

    await userEvent.click(within(party).getByRole('button', { name: /^Start\s?Cockpit 2$/ }));
    await waitFor(() => expect(signals).toHaveLength(3));
    expect(signals[2].body).toEqual({ signal: 'SESSION_START', excluded_calendars: [1] });
    // Never "sent" for a seat with no rig connected.
    expect(
      await within(party).findByText('Start not sent: no rig connected at Cockpit 2.'),
    ).toBeVisible();

    // With every seat left out, the party's Start would reach nobody.
    await userEvent.click(within(party).getByRole('checkbox', { name: /^Cockpit 1/ }));
    expect(
      within(party).getByRole('button', { name: /^Start\s?Friday Night Race$/ }),
    ).toBeDisabled();
  });

  it('will not start an event with no track, or a seat with no car, and says why', async () => {
    const noCar = (calendar: number, name: string) => ({
      id: calendar,
      event: 101,
      calendar,
      calendar_name: name,
      user: null,
      car: null,
      skin: null,
      exited: false,
      initialized: false,
      launched: false,
      state: 'none' as const,
      rig_connected: false,
    });
    open({
      'GET /api/races/parties': {
        body: [{ ...PARTY, event: { ...PARTY.event, track: null, cars: [] } }],
      },
    });
    const party = await screen.findByRole('article', { name: 'Friday Night Race' });
    const start = within(party).getByRole('button', { name: /^Start\s?Friday Night Race$/ });
    expect(start).toBeDisabled();
    expect(start).toHaveAccessibleDescription('Choose a track before starting.');

    // A track but no car anywhere: the seats without one are named.
    const event = {
      ...PARTY.event,
      track: 7,
      cars: [],
      entries: [noCar(1, 'Cockpit 1'), noCar(2, 'Cockpit 2')],
    };
    expect(startProblem(event, [2])).toBe('Choose a car before starting (Cockpit 1).');
    expect(startProblem({ ...event, cars: [3] })).toBe(null);
  });
});

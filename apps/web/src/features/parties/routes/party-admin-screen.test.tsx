import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Party } from '@paddock/contract/races';
import { stubApi, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';

const STAFF = testUser({ id: 1, is_staff: true, location: 1, first_name: 'Sam' });
const PERMISSIONS = ['leaderboards.can_manage_race_events'];
const seat = (id: number, name: string, location = 1) => ({
  id,
  name,
  location,
  event: 100 + id,
  cost_cents: 2500,
  cost_unit: '30 minutes',
  type: 1,
  type_name: 'Pro Cockpit',
  type_image: '',
  type_description: '',
  image: '',
});
const SEATS = [seat(1, 'Cockpit 1'), seat(2, 'Cockpit 2'), seat(3, 'Cockpit 3')];
const page = <T,>(results: T[]) => ({
  count: results.length,
  page_count: 1,
  page_size: 100,
  results,
});

function party(id: number, name: string, calendars: number[]): Party {
  return {
    id,
    location: 1,
    name,
    host_event: 100 + calendars[0],
    host_calendar: calendars[0],
    members: calendars.map((calendar, i) => ({
      id: id * 10 + i,
      party: id,
      calendar,
      calendar_name: `Cockpit ${calendar}`,
      user: null,
      is_host: i === 0,
    })),
    member_requests: [],
    starts_at: null,
    started: true,
    event: {
      id: 100 + calendars[0],
      calendar: calendars[0],
      party: id,
      moved_to: null,
      track: null,
      cars: [],
      sessions: [],
      entries: calendars.map((calendar, i) => ({
        id: i + 1,
        event: 100 + calendars[0],
        calendar,
        calendar_name: `Cockpit ${calendar}`,
        user: null,
        car: null,
        skin: null,
        exited: false,
        initialized: i === 1,
        launched: false,
        state: i === 1 ? 'loading' : 'none',
        rig_connected: false,
      })),
      preset: null,
      assists: [],
      penalties: false,
      fixed_setup: false,
      drift_mode: false,
    },
  };
}

function open(
  parties: Party[] = [],
  handlers: Parameters<typeof stubApi>[0] = {},
  path = '/admin/parties',
) {
  const calls = stubApi({
    'GET /api/users/1': { body: STAFF },
    'GET /api/locations': {
      body: page([
        { id: 1, name: 'Downtown' },
        { id: 2, name: 'Brighton' },
      ]),
    },
    'GET /api/calendars': (r: StubRequest) => ({
      body: page(r.search.get('location') === '2' ? [seat(9, 'Brighton Rig', 2)] : SEATS),
    }),
    'GET /api/races/parties': { body: parties },
    ...handlers,
  });
  const view = renderApp(path, { user: STAFF, permissions: PERMISSIONS });
  return { calls, ...view };
}

describe('/admin/parties', () => {
  it('shows the empty state word for word, and nothing to do until seats are chosen', async () => {
    const { calls } = open();
    expect(await screen.findByText('No parties have been created yet.')).toBeVisible();
    expect(screen.getByText('Select seats from the left to get started.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Create Party' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add to Party' })).toBeDisabled();
    // The staff member's own location, since the address names none.
    expect(calls.find((c) => c.path === '/api/races/parties')?.search.get('location')).toBe('1');
  });

  it('creates a party hosted by the first chosen seat, named after it by default', async () => {
    const bodies: { path: string; body: unknown }[] = [];
    const record = (status: number, body: unknown) => (r: StubRequest) => {
      bodies.push({ path: r.path, body: r.body });
      return { status, body };
    };
    open([], {
      'POST /api/races/parties/host': record(201, party(5, "Cockpit 2's Party", [2])),
      'POST /api/races/parties/members': record(201, {}),
    });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Cockpit 3' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Cockpit 2' }));
    const create = screen.getByRole('button', { name: 'Create Party' });
    expect(create).toBeEnabled();
    await userEvent.click(create);
    await waitFor(() => expect(bodies).toHaveLength(2));
    // Seats go in list order: Cockpit 2 hosts, Cockpit 3 joins.
    expect(bodies).toEqual([
      {
        path: '/api/races/parties/host',
        body: { calendar: 2, name: "Cockpit 2's Party", starts_at: null },
      },
      { path: '/api/races/parties/members', body: { party: 5, calendar: 3 } },
    ]);
    expect(await screen.findByText("Created Cockpit 2's Party.")).toBeVisible();
  });

  it('sets a party up for later on the venue’s clock; a seat in a started party may join it', async () => {
    const bodies: unknown[] = [];
    const waiting = {
      ...party(6, 'Evening', [2]),
      starts_at: '2030-11-28T03:00:00.000Z',
      started: false,
    };
    open([party(4, 'Morning', [1])], {
      'GET /api/locations': {
        body: page([{ id: 1, name: 'Downtown', timezone: 'America/Los_Angeles' }]),
      },
      'POST /api/races/parties/host': (r: StubRequest) => {
        bodies.push(r.body);
        return { status: 201, body: waiting };
      },
      'POST /api/races/parties/members': { status: 201, body: {} },
    });
    const busy = await screen.findByRole('checkbox', { name: /Cockpit 1/ });
    // Now: a seat in a started party cannot join another.
    expect(busy).toBeDisabled();
    expect(screen.getByText('Starts now. Or choose a time today or later.')).toBeVisible();
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '2030-11-27T19:00' } });
    expect(busy).toBeEnabled();
    await userEvent.click(busy);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Cockpit 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Party' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      calendar: 1,
      name: "Cockpit 1's Party",
      starts_at: '2030-11-28T03:00:00.000Z',
    });
  });

  it('a waiting party says when it starts, and its start can be moved to now', async () => {
    const changes: unknown[] = [];
    const waiting = {
      ...party(6, 'Evening', [2]),
      starts_at: '2030-11-28T03:00:00.000Z',
      started: false,
    };
    open([waiting], {
      'GET /api/locations': {
        body: page([{ id: 1, name: 'Downtown', timezone: 'America/Los_Angeles' }]),
      },
      'PATCH /api/races/parties/6': (r: StubRequest) => {
        changes.push(r.body);
        return { body: { ...waiting, started: true } };
      },
    });
    const card = await screen.findByRole('region', { name: 'Evening' });
    expect(within(card).getByText('Waiting')).toBeVisible();
    expect(card).toHaveTextContent('Starts Wed, Nov 27, 7:00 PM PST.');
    await userEvent.click(within(card).getByRole('button', { name: /^Change Start/ }));
    expect(within(card).getByLabelText('New start of Evening')).toHaveValue('2030-11-27T19:00');
    await userEvent.click(within(card).getByRole('button', { name: 'Now' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Save Start' }));
    await waitFor(() => expect(changes).toEqual([{ starts_at: null }]));
    expect(await screen.findByText('Changed the start of Evening.')).toBeVisible();
  });

  it('names a party first through the split button; an empty name cannot be created', async () => {
    open();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Cockpit 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'More ways to create a party' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Party with a Name…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Party' });
    const name = within(dialog).getByLabelText('Party name');
    expect(name).toHaveValue("Cockpit 1's Party");
    await userEvent.clear(name);
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    await userEvent.type(name, '   ');
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
  });

  it('adds seats to a chosen party; seats already in one cannot be chosen', async () => {
    let added: unknown = null;
    open([party(5, 'Friday Night Race', [1, 2])], {
      'POST /api/races/parties/members': (r) => {
        added = r.body;
        return { status: 201, body: {} };
      },
    });
    expect(await screen.findByRole('checkbox', { name: /^Cockpit 1/ })).toBeDisabled();
    expect(screen.getAllByText('in Friday Night Race')).toHaveLength(2);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Cockpit 3' }));
    const add = screen.getByRole('button', { name: 'Add to Party' });
    expect(add).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Party'), 'Friday Night Race');
    expect(add).toBeEnabled();
    await userEvent.click(add);
    await waitFor(() => expect(added).toEqual({ party: 5, calendar: 3 }));
  });

  it('shows each party with its host marked and every member’s load state', async () => {
    open([party(5, 'Friday Night Race', [1, 2])]);
    const card = await screen.findByRole('region', { name: 'Friday Night Race' });
    const members = within(card).getAllByRole('listitem');
    expect(members[0]).toHaveTextContent('Cockpit 1');
    expect(within(members[0]).getByText('Host')).toBeVisible();
    expect(members[0]).toHaveTextContent('State: None');
    expect(members[1]).toHaveTextContent('State: Loading');
    expect(within(members[0]).getByRole('button', { name: /^Remove/ })).toBeDisabled();
    expect(within(members[1]).getByRole('button', { name: /^Remove/ })).toBeEnabled();
  });

  it('renames a party from its card; Cancel leaves the name', async () => {
    let renamed: unknown = null;
    open([party(5, 'Friday Night Race', [1, 2])], {
      'PATCH /api/races/parties/5': (r) => {
        renamed = r.body;
        return { body: { ...party(5, 'Saturday Crew', [1, 2]) } };
      },
    });
    const card = await screen.findByRole('region', { name: 'Friday Night Race' });
    await userEvent.click(within(card).getByRole('button', { name: /^Rename/ }));
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    expect(renamed).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: /^Rename/ }));
    const field = within(card).getByLabelText('New name of Friday Night Race');
    expect(field).toHaveFocus();
    await userEvent.clear(field);
    expect(within(card).getByRole('button', { name: 'Save Name' })).toBeDisabled();
    await userEvent.type(field, ' Saturday Crew {Enter}');
    await waitFor(() => expect(renamed).toEqual({ name: 'Saturday Crew' }));
  });

  it('?location= chooses another location', async () => {
    const { calls } = open([], {}, '/admin/parties?location=2');
    expect(await screen.findByRole('checkbox', { name: 'Brighton Rig' })).toBeVisible();
    expect(calls.find((c) => c.path === '/api/races/parties')?.search.get('location')).toBe('2');
  });
});

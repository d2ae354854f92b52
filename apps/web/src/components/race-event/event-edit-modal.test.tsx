import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RaceEvent } from '@paddock/contract/races';
import { setToken } from '../../lib/auth-store';
import { fakeToken, stubApi, type StubRequest } from '../../test/api-stub';
import { renderWithProviders } from '../../test/render-app';
import { EventEditModal } from './event-edit-modal';

const session = (
  id: number,
  type: 'PRACTICE' | 'QUALIFYING' | 'RACE',
  name: string,
  duration: number,
  spawn: 'PIT' | 'START',
) => ({ id, event: 5, name, type, spawn, ordering: id, duration, duration_is_laps: false });

const entry = (calendar: number, name: string) => ({
  id: calendar,
  event: 5,
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

const EVENT: RaceEvent = {
  id: 5,
  calendar: 1,
  party: 9,
  moved_to: null,
  track: null,
  cars: [],
  sessions: [
    session(0, 'PRACTICE', 'Practice', 25, 'PIT'),
    session(1, 'QUALIFYING', 'Qualifying', 10, 'PIT'),
    session(2, 'RACE', 'Race', 10, 'START'),
  ],
  entries: [entry(1, 'Cockpit 1'), entry(2, 'Cockpit 2')],
  preset: null,
  assists: [],
  penalties: false,
  fixed_setup: false,
  drift_mode: false,
};
const MONZA = { id: 3, name: 'Monza', layout: 'full course', sim: 'ac', key: 'monza' };
const page = <T,>(results: T[]) => ({
  count: results.length,
  page_count: 1,
  page_size: 10,
  results,
});

function open(event: RaceEvent = EVENT, handlers: Parameters<typeof stubApi>[0] = {}) {
  setToken(fakeToken(1));
  const calls = stubApi({
    'GET /api/races/events/5': { body: event },
    'GET /api/races/presets': { body: [] },
    'GET /api/tracks': (r) => ({
      body: page(
        !r.search.get('search') || 'monza'.includes(r.search.get('search')!) ? [MONZA] : [],
      ),
    }),
    'GET /api/tracks/3': { body: MONZA },
    ...handlers,
  });
  const onClose = vi.fn();
  renderWithProviders(<EventEditModal eventId={5} title="Friday Night Race" onClose={onClose} />);
  return { calls, onClose };
}

describe('event-edit modal', () => {
  it('shows the time estimate and follows each change (duration + 1.2, rounded, minutes only)', async () => {
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Edit Event: Friday Night Race' });
    expect(await within(dialog).findByText('Estimated time: 48 minutes')).toBeVisible();
    const race = within(dialog).getByRole('group', { name: 'Session 3: Race' });
    await userEvent.selectOptions(within(race).getByLabelText('Unit'), 'laps');
    await userEvent.clear(within(race).getByLabelText('Duration'));
    await userEvent.type(within(race).getByLabelText('Duration'), '5');
    expect(
      within(dialog).getByText('Estimated time: 37 minutes plus 1 lap-based session'),
    ).toBeVisible();
    const practice = within(dialog).getByRole('group', { name: 'Session 1: Practice' });
    await userEvent.clear(within(practice).getByLabelText('Duration'));
    await userEvent.type(within(practice).getByLabelText('Duration'), '30');
    expect(
      within(dialog).getByText('Estimated time: 42 minutes plus 1 lap-based session'),
    ).toBeVisible();
  });

  it('adds sessions with the defaults, one race at most, no hotlap for a party', async () => {
    open();
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Add Session' }));
    // Dropdown items are disabled the Bootstrap way (a class, and out of the tab order).
    expect(within(dialog).getByRole('button', { name: 'Race' })).toHaveClass('disabled');
    expect(within(dialog).queryByRole('button', { name: 'Hotlap' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Practice' }));
    const added = within(dialog).getByRole('group', { name: 'Session 4: Practice' });
    expect(within(added).getByLabelText('Duration')).toHaveValue(25);
    expect(within(added).getByLabelText('Spawn')).toHaveValue('PIT');
    expect(within(dialog).getByText('Estimated time: 74 minutes')).toBeVisible();
    // Another session cannot become a second race.
    const raceOption = within(within(added).getByLabelText('Type')).getByRole('option', {
      name: 'Race',
    }) as HTMLOptionElement;
    expect(raceOption.disabled).toBe(true);
    // A party's event cannot spawn at the hotlap start.
    const hotlapSpawn = within(within(added).getByLabelText('Spawn')).getByRole('option', {
      name: 'Hotlap start',
    }) as HTMLOptionElement;
    expect(hotlapSpawn.disabled).toBe(true);
  });

  it('offers a hotlap on a seat of its own', async () => {
    open({ ...EVENT, party: null });
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Add Session' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hotlap' }));
    const added = within(dialog).getByRole('group', { name: 'Session 4: Hotlap' });
    expect(within(added).getByLabelText('Spawn')).toHaveValue('HOTLAP_START');
  });

  it('keeps at least one session', async () => {
    open({ ...EVENT, sessions: [EVENT.sessions[2]] });
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('button', { name: 'Remove Session 1' })).toBeDisabled();
  });

  it('saves the sessions in order and shows a 400 beside the field it names', async () => {
    let body: unknown = null;
    const { onClose } = open(EVENT, {
      'PATCH /api/races/events/5': (r: StubRequest) => {
        body = r.body;
        return {
          status: 400,
          body: { 'sessions.0.duration': ['Too big: expected number to be <=240.'] },
        };
      },
    });
    const dialog = await screen.findByRole('dialog');
    const race = await within(dialog).findByRole('group', { name: 'Session 3: Race' });
    await userEvent.click(within(race).getByRole('button', { name: 'Move Up Session 3' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Event' }));
    await waitFor(() => expect(body).not.toBeNull());
    expect((body as { sessions: { type: string }[] }).sessions.map((s) => s.type)).toEqual([
      'PRACTICE',
      'RACE',
      'QUALIFYING',
    ]);
    const first = within(dialog).getByRole('group', { name: 'Session 1: Practice' });
    expect(await within(first).findByText('Too big: expected number to be <=240.')).toBeVisible();
    expect(within(first).getByLabelText('Duration')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();
    // Editing the field takes its message away.
    await userEvent.type(within(first).getByLabelText('Duration'), '0');
    expect(within(first).queryByText('Too big: expected number to be <=240.')).toBeNull();
  });

  it('searches tracks 1 s after typing and hides the results 500 ms after leaving the box', async () => {
    const { calls } = open();
    const dialog = await screen.findByRole('dialog');
    const box = await within(dialog).findByLabelText('Find a track');
    await userEvent.click(box);
    // Empty search: the popular tracks.
    expect(await within(dialog).findByRole('button', { name: /^Monza/ })).toBeVisible();
    await userEvent.type(box, 'mon');
    const searched = () => calls.filter((c) => c.path === '/api/tracks' && c.search.get('search'));
    expect(searched()).toHaveLength(0);
    await waitFor(() => expect(searched()).toHaveLength(1), { timeout: 2_000 });
    expect(searched()[0].search.get('search')).toBe('mon');
    const started = Date.now();
    await userEvent.click(within(dialog).getByRole('heading', { name: 'Track' }));
    expect(within(dialog).getByRole('button', { name: /^Monza/ })).toBeVisible();
    await waitFor(() =>
      expect(within(dialog).queryByRole('button', { name: /^Monza/ })).toBeNull(),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    // Picking one sets the track.
    await userEvent.click(box);
    await userEvent.click(await within(dialog).findByRole('button', { name: /^Monza/ }));
    expect(await within(dialog).findByText('Monza (full course)')).toBeVisible();
  });

  it('puts a driver in a seat, found by name, and saves them with the seat', async () => {
    let body: { entries: { calendar: number; user: number | null }[] } | null = null;
    open(EVENT, {
      'GET /api/races/drivers': { body: [{ id: 42, name: 'Alice Apex', racer_name: 'Apex' }] },
      'PATCH /api/races/events/5': (r: StubRequest) => {
        body = r.body as typeof body;
        return { body: EVENT };
      },
    });
    const dialog = await screen.findByRole('dialog');
    const seat = await within(dialog).findByRole('group', { name: 'Cockpit 1' });
    expect(within(seat).getByText('none')).toBeVisible();
    await userEvent.click(within(seat).getByLabelText('Find a driver'));
    await userEvent.click(await within(seat).findByRole('button', { name: /^Alice Apex/ }));
    expect(within(seat).getByText('Alice Apex (Apex)')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Event' }));
    await waitFor(() => expect(body).not.toBeNull());
    expect(body!.entries).toContainEqual({ calendar: 1, car: null, skin: null, user: 42 });
  });
});

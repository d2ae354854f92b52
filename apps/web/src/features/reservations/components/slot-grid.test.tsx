import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AvailResponse, AvailSlot, SlotState } from '@paddock/contract/calendars';
import { cellKey, cellView, SlotGrid } from './slot-grid';

const DAY = '2099-03-10';
const NOW = Date.parse('2099-03-10T12:10:00-07:00');

function slot(time: string, state: SlotState): AvailSlot {
  const key = `${DAY}T${time}`;
  return {
    slot: key,
    time: `${key}:00-07:00`,
    block: 30,
    state,
    available: state === 'free',
    reserved_by_me: state === 'mine_paid' || state === 'mine_unpaid',
    paid: state === 'mine_paid' ? true : state === 'mine_unpaid' ? false : null,
    is_blackout: state === 'blackout',
    past: state === 'past',
  };
}

function day(entries: [string, SlotState][]): AvailResponse {
  return Object.fromEntries(entries.map(([t, s]) => [`${DAY}T${t}`, slot(t, s)]));
}

const seats = [
  { id: 1, name: 'Cockpit 1', type_name: 'Pro Cockpit' },
  { id: 2, name: 'Cockpit 2', type_name: 'Pro Cockpit' },
];

const availability = {
  1: day([
    ['12:00', 'past'],
    ['12:30', 'free'],
    ['13:00', 'taken'],
    ['13:30', 'blackout'],
  ]),
  2: day([
    ['12:00', 'mine_paid'],
    ['12:30', 'mine_unpaid'],
    ['13:00', 'free'],
    ['13:30', 'free'],
  ]),
};

function renderGrid(selected: string[] = [], onToggle = vi.fn()) {
  render(
    <SlotGrid
      date={DAY}
      seats={seats}
      availability={availability}
      selected={new Set(selected)}
      onToggle={onToggle}
      now={NOW}
    />,
  );
  return onToggle;
}

const cell = (seat: string, time: string, label: string) =>
  screen.getByRole('button', { name: `${seat}, Tuesday, March 10, 2099, ${time}: ${label}` });

describe('SlotGrid', () => {
  it('names every cell with seat, full date, time and state', () => {
    renderGrid([cellKey(2, `${DAY}T13:30`)]);
    expect(cell('Cockpit 1', '12:00 PM', 'Past')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Cockpit 1', '12:30 PM', 'Free')).toHaveAttribute('aria-pressed', 'false');
    expect(cell('Cockpit 1', '1:00 PM', 'Taken')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Cockpit 1', '1:30 PM', 'Unavailable')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Cockpit 2', '12:00 PM', 'You, Confirmed')).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(cell('Cockpit 2', '12:30 PM', 'You, Pending')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Cockpit 2', '1:30 PM', 'Selected')).toHaveAttribute('aria-pressed', 'true');
    expect(
      screen.getByRole('grid', { name: 'Simulators and times on Tuesday, March 10, 2099' }),
    ).toBeVisible();
  });

  it('chooses only free or selected cells', async () => {
    const onToggle = renderGrid([cellKey(2, `${DAY}T13:30`)]);
    await userEvent.click(cell('Cockpit 1', '1:00 PM', 'Taken'));
    await userEvent.click(cell('Cockpit 2', '12:00 PM', 'You, Confirmed'));
    await userEvent.click(cell('Cockpit 1', '12:00 PM', 'Past'));
    expect(onToggle).not.toHaveBeenCalled();
    await userEvent.click(cell('Cockpit 1', '12:30 PM', 'Free'));
    await userEvent.click(cell('Cockpit 2', '1:30 PM', 'Selected'));
    expect(onToggle.mock.calls.map(([s, sl]) => [s.id, sl.slot])).toEqual([
      [1, `${DAY}T12:30`],
      [2, `${DAY}T13:30`],
    ]);
  });

  it('is one tab stop that arrow keys move through, and Space chooses', async () => {
    const onToggle = renderGrid();
    await userEvent.tab();
    // The first free cell takes the focus.
    expect(cell('Cockpit 1', '12:30 PM', 'Free')).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(cell('Cockpit 1', '1:00 PM', 'Taken')).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(cell('Cockpit 2', '1:00 PM', 'Free')).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}{ArrowDown}{ArrowDown}');
    expect(cell('Cockpit 2', '1:30 PM', 'Free')).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(onToggle).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Home}');
    expect(cell('Cockpit 1', '1:30 PM', 'Unavailable')).toHaveFocus();
    const tabbable = screen
      .getAllByRole('button')
      .filter((b) => b.getAttribute('tabindex') === '0');
    expect(tabbable).toHaveLength(1);
  });

  it('hides :15 and :45 and shows a free slot that has started as past', () => {
    const odd = {
      1: {
        ...day([['12:30', 'free']]),
        [`${DAY}T12:45`]: { ...slot('12:30', 'free'), slot: `${DAY}T12:45` },
      },
      2: day([['12:00', 'free']]),
    };
    render(
      <SlotGrid
        date={DAY}
        seats={seats}
        availability={odd}
        selected={new Set()}
        onToggle={vi.fn()}
        now={NOW}
      />,
    );
    expect(screen.queryByText('12:45 PM')).toBeNull();
    expect(cell('Cockpit 2', '12:00 PM', 'Past')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Cockpit 2', '12:30 PM', 'Closed')).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('cellView', () => {
  it('tells loading from closed', () => {
    expect(cellView(undefined, false, true, NOW)).toBe('loading');
    expect(cellView(undefined, false, false, NOW)).toBe('closed');
  });
});

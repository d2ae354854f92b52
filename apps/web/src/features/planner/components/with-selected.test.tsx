import { describe, expect, it } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlannerDay, PlannerEntry } from '@paddock/contract/planner';
import { stubApi } from '../../../test/api-stub';
import { createQueryClient } from '../../../lib/query-client';
import { WithSelected } from './with-selected';

const entry = (id: number): PlannerEntry => ({
  id,
  calendar: 1,
  slot: `2026-12-01T1${id}:00`,
  user: 7,
  user_display_name: 'Sam Racer',
  paid: true,
  is_blackout: false,
  notes: '',
  created_by_name: 'Sam Racer',
  attendance: null,
});
const day = { entries: [], slots: [], seats: [] } as unknown as PlannerDay;
const cells = [1, 2].map((id) => ({
  calendar: 1,
  slot: entry(id).slot,
  time: '',
  entry: entry(id),
}));

async function openDelete() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <WithSelected day={day} cells={cells} onDone={() => {}} onOutOfService={() => {}} />
    </QueryClientProvider>,
  );
  await userEvent.click(screen.getByRole('button', { name: 'With Selected (2)' }));
  await userEvent.click(screen.getByRole('button', { name: 'Delete Reservations' }));
  return within(await screen.findByRole('dialog', { name: 'Delete Reservations' }));
}

const QUOTE = {
  body: {
    bookings: [1, 2].map((reservation) => ({
      reservation,
      customer: 'Sam Racer',
      calendar_name: 'Sim 1',
      slot: entry(reservation).slot,
      currency: 'USD',
      total_cents: 2722,
      kept_cents: 0,
      lines: ['$27.22 given back at the desk (card terminal)'],
    })),
    summary:
      '$27.22 given back at the desk (card terminal); $27.22 given back at the desk (card terminal).',
  },
};

describe('Delete Reservations in the planner', () => {
  it('says how much goes back and how before Delete, then deletes with that refund', async () => {
    const calls = stubApi({
      'POST /api/planner/delete/quote': QUOTE,
      'POST /api/planner/delete': { body: { detail: 'Successfully deleted', entries: [] } },
    });
    const dialog = await openDelete();
    await userEvent.click(dialog.getByRole('radio', { name: 'Full refund' }));
    expect(await dialog.findByText(QUOTE.body.summary)).toBeInTheDocument();
    expect(
      dialog.getByText(/^Sam Racer, Sim 1, 11:00 AM: \$27\.22 given back at the desk/),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/planner/delete/quote').at(-1)?.body).toEqual({
      reservations: [1, 2],
      refund: 'full',
    });
  });

  it('refunds per the policy unless staff choose otherwise', async () => {
    const calls = stubApi({
      'POST /api/planner/delete/quote': QUOTE,
      'POST /api/planner/delete': { body: { detail: 'Successfully deleted', entries: [] } },
    });
    const dialog = await openDelete();
    await dialog.findByText(QUOTE.body.summary);
    expect(dialog.getByRole('radio', { name: 'Refund per the cancellation policy' })).toBeChecked();
    await userEvent.click(dialog.getByRole('radio', { name: 'Full refund' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/planner/delete')).toBe(true));
    expect(calls.find((c) => c.path === '/api/planner/delete')?.body).toEqual({
      reservations: [1, 2],
      refund: 'full',
      reason: '',
    });
  });

  it('needs a reason for no refund', async () => {
    const calls = stubApi({
      'POST /api/planner/delete/quote': QUOTE,
      'POST /api/planner/delete': { body: { detail: 'Successfully deleted', entries: [] } },
    });
    const dialog = await openDelete();
    await dialog.findByText(QUOTE.body.summary);
    await userEvent.click(dialog.getByRole('radio', { name: 'No refund (give a reason)' }));
    expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await userEvent.type(dialog.getByLabelText('Reason'), 'Rig broke, rebooked');
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/planner/delete')).toBe(true));
    expect(calls.find((c) => c.path === '/api/planner/delete')?.body).toMatchObject({
      refund: 'none',
      reason: 'Rig broke, rebooked',
    });
  });
});

import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SessionsSpinner } from './sessions-spinner';

function Harness({ min, initial = min }: { min: number; initial?: number }) {
  const [sessions, setSessions] = useState(initial);
  return (
    <>
      <SessionsSpinner value={sessions} onChange={setSessions} min={min} />
      <output aria-label="chosen">{sessions}</output>
    </>
  );
}

const field = () => screen.getByRole('spinbutton', { name: 'Sessions per month' });
const chosen = () => screen.getByLabelText('chosen').textContent;

describe('SessionsSpinner', () => {
  it('shows the note spelled as the spec has it, tied to the field', () => {
    render(<Harness min={4} />);
    const note = screen.getByText('Minimum of 4 sessions per month required to join');
    expect(field()).toHaveAttribute('aria-describedby', note.id);
    expect(field()).toHaveAttribute('min', '4');
    expect(field()).toHaveAttribute('max', '100');
  });

  it('snaps 0 back to the minimum at once', async () => {
    render(<Harness min={4} initial={6} />);
    await userEvent.clear(field());
    await userEvent.type(field(), '0');
    expect(field()).toHaveValue(4);
    expect(chosen()).toBe('4');
  });

  it('lifts a count below the minimum to it when the field is left', async () => {
    render(<Harness min={4} />);
    await userEvent.clear(field());
    await userEvent.type(field(), '2');
    expect(field()).toBeInvalid();
    expect(screen.getByText('Minimum of 4 sessions per month required to join')).toHaveClass(
      'text-danger',
    );
    expect(chosen()).toBe('4');
    await userEvent.tab();
    expect(field()).toHaveValue(4);
    expect(field()).toBeValid();
  });

  it('reports counts in range as they are typed and caps at 100', async () => {
    render(<Harness min={4} />);
    await userEvent.clear(field());
    await userEvent.type(field(), '12');
    expect(chosen()).toBe('12');
    await userEvent.clear(field());
    await userEvent.type(field(), '250');
    await userEvent.tab();
    expect(field()).toHaveValue(100);
    expect(chosen()).toBe('100');
    expect(screen.getByRole('button', { name: 'More sessions' })).toBeDisabled();
  });

  it('steps with its buttons, never below the minimum', async () => {
    render(<Harness min={1} />);
    expect(screen.getByText('Minimum of 1 sessions per month required to join')).toBeVisible();
    const fewer = screen.getByRole('button', { name: 'Fewer sessions' });
    expect(fewer).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'More sessions' }));
    expect(chosen()).toBe('2');
    expect(field()).toHaveValue(2);
    await userEvent.click(fewer);
    expect(chosen()).toBe('1');
  });
});

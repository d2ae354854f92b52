import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VoucherEntry } from './voucher-entry';

describe('VoucherEntry', () => {
  it('keeps Apply disabled while the code is empty and uppercases what is typed', async () => {
    const onApply = vi.fn(async () => true);
    render(<VoucherEntry applied={null} onApply={onApply} onRemove={vi.fn()} />);
    const apply = screen.getByRole('button', { name: 'Apply' });
    const field = screen.getByLabelText('Discount Code');
    expect(apply).toBeDisabled();
    await userEvent.type(field, '   ');
    expect(apply).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, 'summer-24');
    expect(field).toHaveValue('SUMMER-24');
    expect(apply).toBeEnabled();
    await userEvent.click(apply);
    expect(onApply).toHaveBeenCalledWith('SUMMER-24');
    expect(field).toHaveValue('');
  });

  it('removes a refused code from the field', async () => {
    render(<VoucherEntry applied={null} onApply={async () => false} onRemove={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('Discount Code'), 'nope{Enter}');
    expect(screen.getByLabelText('Discount Code')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
  });

  it('shows the applied code with a way to remove it', async () => {
    const onRemove = vi.fn();
    render(<VoucherEntry applied="SUMMER24" onApply={vi.fn()} onRemove={onRemove} />);
    expect(screen.getByText('SUMMER24')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Remove code' }));
    expect(onRemove).toHaveBeenCalled();
  });
});

import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NOT_YOURS_TO_GRANT } from '@paddock/contract/staff';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';

const MANAGER = testUser({ id: 1, email: 'manager@example.com', is_staff: true });
const HELD = ['user.change_staff', 'user.change_user', 'user.view_user'];
const member = (id: number, name: string, permissions: string[]) => ({
  id,
  email: `${name.toLowerCase()}@example.com`,
  first_name: name,
  last_name: '',
  is_superuser: false,
  permissions,
  last_login: null,
});
const DESK = member(5, 'Desk', ['user.view_user']);
const AUDITOR = member(6, 'Auditor', ['audit.view_event', 'user.view_user']);

function open(options: { superuser?: boolean } = {}) {
  const calls = stubApi({
    'GET /api/staff': { body: { results: [DESK, AUDITOR] } },
    'PUT /api/users/5/permissions': {
      body: { is_staff: true, is_superuser: false, permissions: ['user.view_user'] },
    },
  });
  renderApp('/admin/staff', {
    user: { ...MANAGER, is_superuser: !!options.superuser },
    permissions: HELD,
  });
  return calls;
}

describe('/admin/staff', () => {
  it('offers only the permissions the manager holds, and says why the others are greyed out', async () => {
    const calls = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Permissions: Desk' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Edit customer accounts')).toBeEnabled();
    const outbox = within(dialog).getByLabelText('Read the mail outbox');
    expect(outbox).toBeDisabled();
    expect(outbox).toHaveAccessibleDescription(`Greyed out: ${NOT_YOURS_TO_GRANT}`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Permissions' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        is_staff: true,
        permissions: ['user.view_user'],
      }),
    );
    // The invitation form follows the same rule.
    expect(screen.getAllByLabelText('See the audit trail')[0]).toBeDisabled();
  });

  it('keeps a member who holds more than the manager on the staff, with the reason shown', async () => {
    open();
    const remove = await screen.findByRole('button', { name: 'Remove from Staff: Auditor' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription(
      'Holds permissions you do not (See the audit trail): only someone who holds them can take them off the staff.',
    );
    expect(screen.getByRole('button', { name: 'Remove from Staff: Desk' })).toBeEnabled();
  });

  it('lets a superuser grant and remove anything', async () => {
    open({ superuser: true });
    expect(await screen.findByRole('button', { name: 'Remove from Staff: Auditor' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Edit Permissions: Auditor' }));
    expect(
      within(await screen.findByRole('dialog')).getByLabelText('Read the mail outbox'),
    ).toBeEnabled();
  });
});

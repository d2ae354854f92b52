import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CURRENT_PASSWORD_MISSING } from '@paddock/contract/accounts';
import { stubApi, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { PROFILE_SAVED } from '../components/profile-form';

const saved = (request: StubRequest) => ({
  body: { ...testUser(), ...(request.body as object), current_password: undefined },
});

describe('/profile and the current password (decision 0113)', () => {
  it('saves the profile as it is without asking', async () => {
    const calls = stubApi({ 'PATCH /api/users/7': saved, 'GET /api/locations': { body: [] } });
    renderApp('/profile', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText(PROFILE_SAVED)).toBeVisible();
    expect(screen.queryByLabelText('Current Password')).toBeNull();
    const body = calls.find((c) => c.method === 'PATCH')?.body as Record<string, unknown>;
    expect(body.email).toBe('sam@example.com');
    expect(body).not.toHaveProperty('current_password');
  });

  it("asks for it with a new e-mail, and shows the server's word on the field", async () => {
    const calls = stubApi({
      'PATCH /api/users/7': (request) =>
        (request.body as { current_password?: string }).current_password
          ? saved(request)
          : { status: 400, body: { current_password: [CURRENT_PASSWORD_MISSING] } },
      'GET /api/locations': { body: [] },
    });
    renderApp('/profile', { user: testUser() });
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'sam.new@example.com');
    const current = screen.getByLabelText('Current Password');
    expect(current).toHaveAccessibleDescription('Needed to change your e-mail address.');
    await userEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText(CURRENT_PASSWORD_MISSING)).toBeVisible();
    expect(current).toHaveFocus();
    await userEvent.type(current, 'my-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText(PROFILE_SAVED)).toBeVisible();
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toMatchObject({
      email: 'sam.new@example.com',
      current_password: 'my-password-1',
    });
  });
});

import type { APIRequestContext } from '@playwright/test';
import { bookingDate, signUp, type Customer } from './booking-support';
import { DEMO_STAFF as STAFF, expect, expectAccessible, logIn, test } from './fixtures';

// Issues 28 and 30: "Mark All Outstanding as Paid" asks how it was paid (cash, card terminal,
// bank transfer, other), how much, and confirms first; a part payment settles the oldest booking.

async function staffToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/auth/token', { data: STAFF });
  expect(login.ok()).toBe(true);
  return ((await login.json()) as { access: string }).access;
}

/** Staff book `n` unpaid seats for the customer, the oldest first. */
async function bookUnpaid(request: APIRequestContext, access: string, who: Customer, n: number) {
  const headers = { Authorization: `Bearer ${access}` };
  const { results } = (await (await request.get('/api/calendars', { headers })).json()) as {
    results: { id: number }[];
  };
  let booked = 0;
  for (const hhmm of ['12:00', '13:30', '15:00', '16:30', '18:00', '19:30']) {
    for (const seat of results) {
      const answer = await request.post('/api/reservations', {
        headers,
        data: { calendar: seat.id, slot: `${bookingDate(11)}T${hhmm}`, user: who.id },
      });
      if (answer.status() === 201) {
        booked += 1;
        break;
      }
    }
    if (booked === n) return;
  }
  throw new Error('no free slots to book');
}

test('staff take a part payment on the card terminal, then the rest in cash', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const access = await staffToken(request);
  const customer = await signUp(request, 'desk-pay');
  await bookUnpaid(request, access, customer, 2);
  const balance = (await (
    await request.get(`/api/users/${customer.id}/balance`, {
      headers: { Authorization: `Bearer ${access}` },
    })
  ).json()) as { amount_cents: number; detail: { amount_cents: number }[] };
  const first = balance.detail[0].amount_cents;
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

  await logIn(page, STAFF);
  await page.goto(`/admin/user/${customer.id}`);
  const owed = page.getByRole('alert').filter({ hasText: 'Outstanding balance' });
  await expect(
    owed.getByText(`Outstanding balance: ${dollars(balance.amount_cents)}`),
  ).toBeVisible();

  // A part payment: the oldest booking, on the card terminal.
  await page.getByRole('button', { name: 'Mark All Outstanding as Paid' }).click();
  const form = page.getByRole('dialog', { name: 'Take Payment' });
  await expect(form.getByLabel('Amount (USD)')).toHaveValue(
    (balance.amount_cents / 100).toFixed(2),
  );
  await form.getByRole('button', { name: 'Continue' }).click();
  await expect(form.getByText('Choose how it was paid.')).toBeVisible();
  await expectAccessible(page);
  await form.getByRole('radio', { name: 'Card terminal' }).check();
  await form.getByLabel('Amount (USD)').fill((first / 100).toFixed(2));
  await form.getByLabel('Note (optional)').fill('Terminal 1');
  await form.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Payment' });
  await expect(confirm).toContainText(`Record ${dollars(first)} paid by card terminal`);
  await expect(confirm).toContainText(`${dollars(balance.amount_cents - first)} stays outstanding`);
  await expectAccessible(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await confirm.getByRole('button', { name: 'Confirm Payment' }).click();
  await expect(page.getByText(`${dollars(first)} recorded (card terminal).`)).toBeVisible();
  // The new total, not an item of the old list that happens to cost the same.
  await expect(
    owed.getByText(`Outstanding balance: ${dollars(balance.amount_cents - first)}`),
  ).toBeVisible();

  // The rest in cash: the spec's message, and the balance is gone.
  await page.getByRole('button', { name: 'Mark All Outstanding as Paid' }).click();
  await page
    .getByRole('dialog', { name: 'Take Payment' })
    .getByRole('radio', { name: 'Cash' })
    .check();
  await page
    .getByRole('dialog', { name: 'Take Payment' })
    .getByRole('button', { name: 'Continue' })
    .click();
  await page
    .getByRole('dialog', { name: 'Confirm Payment' })
    .getByRole('button', { name: 'Confirm Payment' })
    .click();
  await expect(page.getByText('All outstanding line items have been marked as Paid')).toBeVisible();
  await expect(owed).toHaveCount(0);

  // The trail says it in words; the customer's charges say how each was paid.
  const actions = page.locator('.card').filter({ hasText: 'Staff Actions' });
  await expect(actions.getByRole('cell', { name: 'Took a payment at the desk' })).toHaveCount(2);
  await page.getByRole('button', { name: 'View Customer Charges' }).click();
  const charges = page.getByRole('dialog', { name: /Charges of/ });
  // On a phone each cell is labelled with its column (the stacked table).
  await expect(charges.getByRole('cell', { name: /^(Method )?Card terminal$/ })).toBeVisible();
  await expect(charges.getByRole('cell', { name: /^(Method )?Cash$/ })).toBeVisible();
  await expectAccessible(page);

  // A receipt for each, in the outbox.
  await expect
    .poll(async () => {
      const answer = await request.get('/api/outbox', {
        headers: { Authorization: `Bearer ${access}` },
      });
      const { results } = (await answer.json()) as { results: { to: string; subject: string }[] };
      return results.filter(
        (m) => m.to.includes(customer.email) && /paid at the desk/.test(m.subject),
      ).length;
    })
    .toBe(2);
});

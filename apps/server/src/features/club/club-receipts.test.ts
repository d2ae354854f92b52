import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clubMemberships } from '../../db/schema/club';
import { settings } from '../../db/schema/content';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { sentMail } from '../../test/sent-mail';
import { runRenewals } from './renewals';

// Every club money event mails a receipt, HTML and text, in the venue's default currency (0039).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.insert(settings).values([
    { key: 'default_currency', value: 'GBP' },
    { key: 'company_name', value: 'Brighton Sim Club' },
    { key: 'logo_url', value: '/media/logo.png' },
  ]);
});
afterAll(() => t.close());

const deps = () => ({
  db: t.db,
  payments: t.deps.payments,
  mail: { mailer: t.deps.mailer, publicUrl: t.deps.config.publicUrl, logError: () => {} },
});
const call = (url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

async function member(card = '4242424242424242') {
  const user = await createUser(t);
  await saveTestCard(t, user, card);
  const res = await call('/api/users/me/charges/credits_enroll', user, { credits_amount: 1000 });
  expect(res.statusCode, res.body).toBe(200);
  return user;
}

function expectBothParts(mail: { text?: string; html?: string | false }, ...texts: string[]) {
  for (const s of texts) {
    expect(mail.text).toContain(s);
    expect(mail.html).toContain(s);
  }
  expect(mail.html).toContain('Brighton Sim Club');
  expect(mail.html).toContain(`${t.deps.config.publicUrl}/media/logo.png`);
  expect(mail.html).toContain(`${t.deps.config.publicUrl}/dashboard`);
  expect(mail.text).toContain(`${t.deps.config.publicUrl}/dashboard`);
}

describe('club receipts', () => {
  it('mails the enrolment receipt in pounds', async () => {
    const user = await member();
    const mail = await sentMail(t, user.email, /^Welcome to the Apex Club$/);
    // 1000 credits = $100 list, less 20%: £80.00 a month.
    expectBothParts(mail, '£80.00', '4 sessions per month');
  });

  it('mails a renewal receipt, and a failed renewal notice', async () => {
    const paid = await member();
    const declined = await member();
    await t.db
      .update(clubMemberships)
      .set({ cycleDay: 10, nextChargeOn: '2027-03-10' })
      .where(eq(clubMemberships.userId, paid.id));
    await t.db
      .update(clubMemberships)
      .set({ cycleDay: 10, nextChargeOn: '2027-03-10' })
      .where(eq(clubMemberships.userId, declined.id));
    await saveTestCard(t, declined, '4000000000000341');
    const report = await runRenewals(deps(), new Date('2027-03-10T20:00:00Z'));
    // The first test's member is due too (its next cycle is before March 2027).
    expect(report.declined).toBe(1);

    expectBothParts(await sentMail(t, paid.email, /renewal receipt/), '£80.00', 'March 2027');
    expectBothParts(
      await sentMail(t, declined.email, /renewal payment failed/),
      '£80.00',
      'Your card was declined.',
    );
  });

  it('mails the charge-back of a cancellation within two cycles', async () => {
    const user = await member();
    const res = await call('/api/users/me/charges/credits_unenroll', user);
    expect(res.json().detail).toContain('£20.00');
    expectBothParts(await sentMail(t, user.email, /cancellation receipt/), '£20.00');
  });
});

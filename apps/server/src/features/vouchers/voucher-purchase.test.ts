import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { VOUCHER_ALPHABET } from '@paddock/contract/vouchers';
import { vouchers } from '../../db/schema/booking';
import { outboxMessages, settings } from '../../db/schema/content';
import { sentMail } from '../../test/sent-mail';
import { charges } from '../../db/schema/payments';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { NO_CARD_FOR_VOUCHER_MESSAGE } from './voucher-purchase';
import { groupedCode, voucherMail } from './voucher-mail';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const purchase = (user: CreatedUser | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/me/vouchers/purchase',
    headers: user ? bearer(user.token) : {},
    payload: payload as object,
  });
const mailTo = (to: string) => t.db.select().from(outboxMessages).where(eq(outboxMessages.to, to));
const voucherCharges = (user: CreatedUser) =>
  t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, user.id), eq(charges.kind, 'voucher')));

async function buyer(card = '4242424242424242') {
  const user = await createUser(t);
  await saveTestCard(t, user, card);
  return user;
}

describe('POST /users/me/vouchers/purchase', () => {
  it('charges the card, answers an unguessable code and e-mails the friend', async () => {
    const user = await buyer();
    const res = await purchase(user, {
      amount_cents: 2500,
      email_to: 'friend@example.com',
      email_from_name: 'Sam <Racer>',
      email_comments: 'Happy birthday!\nSee you on track.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ code: expect.any(String), amount_cents: 2500, currency: 'USD' });
    expect(body.code).toMatch(new RegExp(`^[${VOUCHER_ALPHABET}]{12}$`));

    const [charge] = await voucherCharges(user);
    expect(charge).toMatchObject({
      amountCents: 2500,
      errors: '',
      notes: 'Gift voucher $25.00 for friend@example.com',
      idempotencyKey: `voucher-${body.code}`,
    });

    const [mail] = await mailTo('friend@example.com');
    expect(mail.subject).toBe('Sam <Racer> sent you a $25.00 Paddock Sim Racing gift voucher');
    expect(mail.text).toContain(groupedCode(body.code));
    expect(mail.text).toContain('$25.00');
    expect(mail.text).toContain('Happy birthday!');
    expect(mail.html).toContain(groupedCode(body.code));
    expect(mail.html).toContain('Sam &lt;Racer&gt; sent you a gift voucher');
    expect(mail.html).toContain('Happy birthday!<br>See you on track.');
    expect(mail.html).not.toContain('<Racer>');
    // The buyer gets a receipt, not the code (docs/decisions/0039).
    const receipt = await sentMail(t, user.email, /^Receipt: your \$25\.00 /);
    expect(receipt.text).toContain('friend@example.com');
    expect(receipt.text).toContain('$25.00');
    expect(receipt.html).toContain('$25.00');
    expect(receipt.text).not.toContain(groupedCode(body.code));
    expect(receipt.html).not.toContain(groupedCode(body.code));

    const balance = await t.app.inject({
      method: 'GET',
      url: `/api/vouchers/${groupedCode(body.code).toLowerCase()}/balance`,
    });
    expect(balance.json()).toEqual({
      balance_cents: 2500,
      currency: 'USD',
      status: 'active',
      expires_on: null,
    });
    // The back office sees who bought it, for whom, and the message (decision 0042).
    const [row] = await t.db.select().from(vouchers).where(eq(vouchers.code, body.code));
    expect(row).toMatchObject({
      source: 'purchase',
      createdById: user.id,
      recipientEmail: 'friend@example.com',
      fromName: 'Sam <Racer>',
      message: 'Happy birthday!\nSee you on track.',
    });
  });

  it('e-mails the buyer when it is not sent to someone, $100 by default', async () => {
    const user = await buyer();
    const res = await purchase(user, { email_to: '', email_from_name: '', email_comments: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().amount_cents).toBe(10_000);
    const [mail] = await mailTo(user.email);
    expect(mail.subject).toBe('Your $100.00 Paddock Sim Racing gift voucher');
    expect(mail.text).toContain(groupedCode(res.json().code));
  });

  it('a declined card creates no voucher and sends nothing; the failed charge is listed', async () => {
    const user = await buyer('4000000000000341');
    const res = await purchase(user, {
      amount_cents: 5000,
      email_to: 'pal@example.com',
      email_from_name: 'Kim',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Your card was declined.'] });
    expect(await t.db.select().from(vouchers).where(eq(vouchers.createdById, user.id))).toEqual([]);
    expect(await mailTo('pal@example.com')).toEqual([]);
    const [charge] = await voucherCharges(user);
    expect(charge).toMatchObject({ amountCents: 5000, errors: 'Your card was declined.' });
  });

  it('needs a saved card and a login', async () => {
    const user = await createUser(t);
    const res = await purchase(user, { amount_cents: 2500 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [NO_CARD_FOR_VOUCHER_MESSAGE] });
    expect((await purchase(undefined, { amount_cents: 2500 })).statusCode).toBe(401);
    expect((await purchase(undefined, { amount_cents: 'lots' })).statusCode).toBe(401);
  });

  it('answers 400 naming the field for bad input, and charges nothing', async () => {
    const user = await buyer();
    const cases: [unknown, string][] = [
      [{ amount_cents: 2550 }, 'amount_cents'],
      [{ amount_cents: 25.5 }, 'amount_cents'],
      [{ amount_cents: '2500' }, 'amount_cents'],
      [{ amount_cents: 0 }, 'amount_cents'],
      [{ amount_cents: -100 }, 'amount_cents'],
      [{ amount_cents: 100_100 }, 'amount_cents'],
      [{ amount_cents: 2500, email_to: 'not-an-email', email_from_name: 'Jo' }, 'email_to'],
      [{ amount_cents: 2500, email_to: 'a@b.co' }, 'email_from_name'],
      [{ amount_cents: 2500, email_to: 'a@b.co', email_from_name: '  ' }, 'email_from_name'],
      [{ amount_cents: 2500, email_from_name: 'x'.repeat(101) }, 'email_from_name'],
      [{ amount_cents: 2500, email_comments: 'x'.repeat(201) }, 'email_comments'],
      [{ amount_cents: 2500, email_comments: 5 }, 'email_comments'],
      // Issue 27: the mail goes from the venue to any address; no links in what the buyer types.
      [{ amount_cents: 2500, email_from_name: 'x'.repeat(61) }, 'email_from_name'],
      [
        { amount_cents: 2500, email_comments: 'Claim it: https://evil.example/win' },
        'email_comments',
      ],
      [{ amount_cents: 2500, email_comments: 'go to www.evil.example now' }, 'email_comments'],
      [{ amount_cents: 2500, email_comments: 'log in at paddock-login.com' }, 'email_comments'],
      [{ amount_cents: 2500, email_comments: 'write to help@evil.example' }, 'email_comments'],
      [
        { amount_cents: 2500, email_to: 'a@b.co', email_from_name: 'Support http://x.example' },
        'email_from_name',
      ],
      [{ amount_cents: 2500, email_to: 'a@b.co', email_from_name: 'evil.com' }, 'email_from_name'],
      [{ amount_cents: 2500, code: 'MINE' }, 'code'],
    ];
    for (const [payload, field] of cases) {
      const res = await purchase(user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json()), JSON.stringify(payload)).toEqual([field]);
    }
    for (const payload of [
      { amount_cents: 2500, email_comments: 'x'.repeat(200) },
      {
        amount_cents: 2500,
        email_to: 'friend@example.com',
        email_from_name: 'Dr. J.R. Smith-Jones',
        email_comments: 'Happy 30th! See you at 7.30 p.m., lap 2 is yours. Mr.Smith says hi.',
      },
    ])
      expect((await purchase(user, payload)).statusCode, JSON.stringify(payload)).toBe(200);
    expect(await voucherCharges(user)).toHaveLength(2);
    const mail = await sentMail(t, 'friend@example.com', /Smith-Jones/);
    expect(mail.html).not.toMatch(/<a [^>]*href="(?!https?:\/\/localhost)/);
  });
});

describe('voucher currency', () => {
  it('sells in the venue default currency and mails the amount in it', async () => {
    await t.db.insert(settings).values({ key: 'default_currency', value: 'EUR' });
    try {
      const user = await buyer();
      const res = await purchase(user, { amount_cents: 2500 });
      expect(res.json()).toMatchObject({ amount_cents: 2500, currency: 'EUR' });
      const [charge] = await voucherCharges(user);
      expect(charge).toMatchObject({ amountCents: 2500, currency: 'EUR' });
      const mail = await sentMail(t, user.email, /gift voucher/);
      expect(mail.subject).toBe('Your €25.00 Paddock Sim Racing gift voucher');
      expect(mail.text).toContain('€25.00');
      expect(mail.html).toContain('€25.00');
      const balance = await t.app.inject({
        method: 'GET',
        url: `/api/vouchers/${res.json().code}/balance`,
      });
      expect(balance.json()).toMatchObject({ balance_cents: 2500, currency: 'EUR' });
    } finally {
      await t.db.delete(settings).where(eq(settings.key, 'default_currency'));
    }
  });
});

describe('voucher codes and mail', () => {
  it('never use 0, O, 1 or I, and are grouped by four in the mail', () => {
    expect(VOUCHER_ALPHABET).not.toMatch(/[0O1I]/);
    expect(groupedCode('ABCDEFGHJKLM')).toBe('ABCD-EFGH-JKLM');
  });

  it('puts the amount, code, sender and comments in a designed message', async () => {
    const mail = await voucherMail({
      to: 'x@example.com',
      code: 'ABCDEFGHJKLM',
      amountCents: 2500,
      currency: 'USD',
      gift: { fromName: 'Alex\r\nBcc: evil@example.com', comments: '<script>x</script>' },
      venue: { name: 'Paddock', logoUrl: '', publicUrl: 'https://paddock.example' },
    });
    expect(mail.subject).toBe('Alex Bcc: evil@example.com sent you a $25.00 Paddock gift voucher');
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).toContain('https://paddock.example/reservations/all');
    expect(mail.html).toContain('ABCD-EFGH-JKLM');
    expect(mail.text).toContain('https://paddock.example/vouchers/balance');
  });
});

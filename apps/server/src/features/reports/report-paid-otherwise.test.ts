import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Report } from '@paddock/contract/reports';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bookAndPay } from '../../test/requests';
import { bearer, createUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// Reports show the booking fees and tax inside the takings, and vouchers and club credits beside
// them (issue 41, decision 0117).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('takings by method', () => {
  it('names the booking fees and the sales tax of the paid checkouts, outside the money total', async () => {
    const venue = await createVenue(t, {
      seats: 1,
      costCents: 4500,
      bookingFeeCents: 150,
      salesTaxRatePercent: '10',
    });
    const owner = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
    const driver = await createUser(t);
    await saveTestCard(t, driver);
    await bookAndPay(t, driver, [{ calendar: venue.seats[0].id, slot: `${futureDate(2)}T10:00` }]);
    const today = DateTime.now().setZone('America/Los_Angeles').toISODate()!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/reports?location=${venue.location.id}&from=${today}&to=${today}`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const takings = (res.json() as Report).takings_by_method;
    // 4500 + 150 fee, 10 % tax: 465; charged 5115 by card.
    expect(takings).toMatchObject({
      card_cents: 5115,
      total_cents: 5115,
      fees_cents: 150,
      tax_cents: 465,
      voucher_cents: 0,
      credits_cents: 0,
    });
  });
});

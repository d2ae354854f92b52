import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';

// A party's default name is the host's name plus 's Party (spec staff §5), never a copy of
// another party's name at the location (issue 41).

let t: TestApp;
let staff: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events'],
  });
});
afterAll(() => t.close());

const host = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/races/parties/host',
    headers: bearer(staff.token),
    payload,
  });

describe('a new party without a name', () => {
  it("is the host's party, numbered past the names the location already has", async () => {
    const venue = await createVenue(t, { seats: 2 });
    const [sim1] = venue.seats.map((s) => s.id);
    const later = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const first = await host({ calendar: sim1, starts_at: later(2) });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().name).toBe("Sim 1's Party");
    const second = await host({ calendar: sim1, starts_at: later(4) });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().name).toBe("Sim 1's Party 2");
    const third = await host({ calendar: sim1, name: '  ', starts_at: later(6) });
    expect(third.json().name).toBe("Sim 1's Party 3");
    // Another location's parties are not this one's business.
    const other = await createVenue(t, { seats: 1 });
    const elsewhere = await host({ calendar: other.seats[0].id });
    expect(elsewhere.json().name).toBe("Sim 1's Party");
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@paddock/contract/venue';
import {
  clubTerms,
  creditsProblem,
  minimumSessions,
  quoteCredits,
  sessionsFor,
} from './club-terms';

const terms = clubTerms(DEFAULT_SETTINGS);
const withSettings = (changes: Partial<typeof DEFAULT_SETTINGS>) =>
  clubTerms({ ...DEFAULT_SETTINGS, ...changes });

describe('quoteCredits', () => {
  it('prices credits at 10 cents less the club discount', () => {
    expect(quoteCredits(1000, terms)).toEqual({
      quotedCents: 10_000,
      discountPercent: 20,
      totalCents: 8_000,
      firstChargeCents: 8_000,
    });
    expect(quoteCredits(2500, terms).totalCents).toBe(20_000);
  });

  it('rounds the discount half up, in whole cents', () => {
    // 250 credits = 2500 cents; 15% = 375 cents exactly; 12.5% of 2500 = 312.5 → 313 off.
    expect(quoteCredits(250, withSettings({ club_discount_percent: 15 })).totalCents).toBe(2125);
    const odd = withSettings({ club_credits_per_session: 25, club_discount_percent: 33 });
    // 25 credits = 250 cents; 33% = 82.5 → 83 off → 167.
    expect(quoteCredits(25, odd).totalCents).toBe(167);
  });

  it('charges the first-race price for the first session of the first month', () => {
    const offer = withSettings({ club_first_race_cents: 1000 });
    expect(quoteCredits(250, offer)).toMatchObject({ totalCents: 2000, firstChargeCents: 1000 });
    // 1000 for the first session + 3 sessions at 2000.
    expect(quoteCredits(1000, offer)).toMatchObject({ totalCents: 8000, firstChargeCents: 7000 });
  });

  it('has no discount at 0%', () => {
    expect(quoteCredits(1000, withSettings({ club_discount_percent: 0 })).totalCents).toBe(10_000);
  });
});

describe('minimum sessions', () => {
  it('is the configured minimum, or 1 with a first-race price', () => {
    expect(minimumSessions(terms)).toBe(4);
    expect(minimumSessions(withSettings({ club_min_sessions: 2 }))).toBe(2);
    expect(minimumSessions(withSettings({ club_first_race_cents: 500 }))).toBe(1);
  });

  it('refuses plans below the minimum, part sessions and above 100 sessions', () => {
    expect(creditsProblem(1000, terms)).toBeNull();
    expect(creditsProblem(750, terms)).toBe('Minimum of 4 sessions per month required to join');
    expect(creditsProblem(1100, terms)).toBe('Credits come in sessions of 250.');
    expect(creditsProblem(0, terms)).toBe('A whole number of credits is required.');
    expect(creditsProblem(25_000, terms)).toBeNull();
    expect(creditsProblem(25_250, terms)).toBe('A plan can have at most 100 sessions per month.');
    expect(creditsProblem(250, withSettings({ club_first_race_cents: 500 }))).toBeNull();
  });
});

describe('sessionsFor', () => {
  it('counts whole standard sessions', () => {
    expect(sessionsFor(0, terms)).toBe(0);
    expect(sessionsFor(249, terms)).toBe(0);
    expect(sessionsFor(1000, terms)).toBe(4);
    expect(sessionsFor(1249, terms)).toBe(4);
  });
});

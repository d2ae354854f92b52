import {
  CENTS_PER_CREDIT,
  CLUB_MAX_SESSIONS,
  minimumSessionsMessage,
} from '@paddock/contract/club';
import type { VenueSettings } from '@paddock/contract/venue';
import { percentOfCents } from '../../lib/money';

/** The club's rules as venue settings give them. Pure: the arithmetic of quotes and enrolment. */
export type ClubTerms = {
  name: string;
  enabled: boolean;
  discountPercent: number;
  minSessions: number;
  firstRaceCents: number;
  creditsPerSession: number;
  /** ISO 4217: the venue's default currency, what membership is charged in. */
  currency: string;
};

export function clubTerms(settings: VenueSettings): ClubTerms {
  return {
    name: settings.club_name,
    enabled: settings.club_enabled,
    discountPercent: settings.club_discount_percent,
    minSessions: settings.club_min_sessions,
    firstRaceCents: settings.club_first_race_cents,
    creditsPerSession: settings.club_credits_per_session,
    currency: settings.default_currency,
  };
}

/** A first-race price makes a one-session membership possible (staff spec §5). */
export function minimumSessions(terms: ClubTerms): number {
  return terms.firstRaceCents > 0 ? 1 : terms.minSessions;
}

/** Why `credits` cannot be a monthly plan, or null: whole sessions, minimum to maximum. */
export function creditsProblem(credits: number, terms: ClubTerms): string | null {
  if (!Number.isSafeInteger(credits) || credits <= 0)
    return 'A whole number of credits is required.';
  if (credits % terms.creditsPerSession !== 0)
    return `Credits come in sessions of ${terms.creditsPerSession}.`;
  const sessions = credits / terms.creditsPerSession;
  if (sessions < minimumSessions(terms)) return minimumSessionsMessage(minimumSessions(terms));
  if (sessions > CLUB_MAX_SESSIONS)
    return `A plan can have at most ${CLUB_MAX_SESSIONS} sessions per month.`;
  return null;
}

/** List price of credits: 10 cents each. */
export const creditsToCents = (credits: number) => credits * CENTS_PER_CREDIT;

/** The discounted price of `cents` (the discount rounds half up, in the customer's favour). */
const discounted = (cents: number, percent: number) => cents - percentOfCents(cents, percent);

export type CreditsQuote = {
  quotedCents: number;
  discountPercent: number;
  /** The monthly price. */
  totalCents: number;
  /** What enrolment charges: the monthly price, or the first-race offer. */
  firstChargeCents: number;
};

export function quoteCredits(credits: number, terms: ClubTerms): CreditsQuote {
  const quotedCents = creditsToCents(credits);
  const totalCents = discounted(quotedCents, terms.discountPercent);
  const rest = Math.max(0, credits - terms.creditsPerSession);
  const firstChargeCents =
    terms.firstRaceCents > 0
      ? terms.firstRaceCents + discounted(creditsToCents(rest), terms.discountPercent)
      : totalCents;
  return { quotedCents, discountPercent: terms.discountPercent, totalCents, firstChargeCents };
}

/** Standard sessions a balance pays for. */
export const sessionsFor = (credits: number, terms: ClubTerms) =>
  Math.floor(Math.max(0, credits) / terms.creditsPerSession);

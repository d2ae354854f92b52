import { z } from 'zod';
import { safeUrl } from './common';
import { currencyCode, DEFAULT_CURRENCY } from './money';
import { brandColour, frameOrigin } from './public-availability';

export const navLink = z.object({
  label: z.string().min(1).max(60),
  url: safeUrl().pipe(z.string().min(1)),
});

export const DEFAULT_TERMS_TEXT = `Terms of Service (last revised September 6th, 2023)

Cancellations: {cancellation_window_hours} hours notice is required before cancelling appointments; otherwise the reservation may not be refundable.

Subscriptions: cancelling a subscription within two billing cycles charges back the discounts given. Subscriptions can be cancelled by contacting us, and are processed within 24 hours.

Payments are non-refundable. Credits may expire. Prices can change.`;

export { CANCELLATION_HOURS_PLACEHOLDER, termsWithPolicy } from './terms-rules';

export const DEFAULT_PRIVACY_TEXT = `Privacy Policy

We do not share your personal information with anyone for advertising purposes. We use it only to run your bookings, your membership and your account.

What we keep, why, and for how long:

Your account (name, e-mail, phone, racer name, flag, sim id, postcode): to run your bookings and show your laps. Kept while you have the account.

Payment records (charges, refunds, receipts, club credits, gift vouchers): the law requires us to keep them for our accounts, normally six years. When your account is deleted they stay, without your name.

Mails we sent you: kept with your account, so we can see what you were told. Erased when your account is deleted.

Laps and race results: on the leaderboards while you have the account. When it is deleted they leave the boards or show as "Deleted driver".

Accounts not used for a number of years may be anonymised automatically.

Your data in your hands: in My Profile, "Download my data" gives you everything we keep about you, and "Delete my account" deletes it (future bookings are cancelled under the cancellation policy, and what comes back is shown before you confirm).`;

/** Venue settings staff can change; every key has a default. */
export const venueSettings = z.object({
  club_enabled: z.boolean(),
  club_name: z.string().trim().min(1).max(60),
  company_name: z.string().trim().min(1).max(120),
  nav_links: z.array(navLink).max(12),
  logo_url: safeUrl(),
  marketing_url: safeUrl(),
  terms_text: z.string().max(50_000),
  privacy_text: z.string().max(50_000),
  header_images_enabled: z.boolean(),
  /** The banner over the booking page (shown while header images are enabled); '' for none. */
  header_image_url: safeUrl(),
  header_image_height: z.number().int().min(0).max(1000),
  club_discount_percent: z.number().int().min(0).max(100),
  club_min_sessions: z.number().int().min(1).max(100),
  club_first_race_cents: z.number().int().min(0).max(10_000_000),
  club_credits_per_session: z.number().int().min(1).max(10_000_000),
  social_links: z.array(navLink).max(12),
  /** Unpaid future bookings a customer may hold at once (docs/decisions: abuse limits). */
  max_unpaid_reservations: z.number().int().min(1).max(100),
  /**
   * 'View Car' (customer spec §2): the external car-details page to embed, `{id}` standing for
   * the car's id and `{key}` for its content key (e.g. `https://cars.example.com/{key}`). Empty:
   * Paddock's own car page.
   */
  car_details_url: safeUrl(),
  /** Cancellation policy (docs/decisions/0027): free until this many hours before the slot. */
  cancellation_window_hours: z.number().int().min(0).max(720),
  /** Club members' own window; null: the same as everyone's. */
  club_cancellation_window_hours: z.number().int().min(0).max(720).nullable(),
  /** Share of what was paid kept on a late cancellation or a no-show. */
  late_cancellation_keep_percent: z.number().int().min(0).max(100),
  /** How long a freed seat is held for the first customer on its waitlist. */
  waitlist_hold_minutes: z.number().int().min(1).max(240),
  /** ISO 4217 code of what is not sold at one location: club membership and gift vouchers. */
  default_currency: currencyCode,
  /** The nightly backup on the embedded database: venue-local time, and how many to keep. */
  backup_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:MM (24-hour).'),
  backup_keep: z.number().int().min(1).max(365),
  /**
   * Visit reminders (issue 45, decision 0119): an e-mail this many hours before each visit (0:
   * none), and a second one this many hours before (0: none; only when under the first).
   */
  reminder_hours: z.number().int().min(0).max(168),
  second_reminder_hours: z.number().int().min(0).max(48),
  /**
   * A deleted customer's laps (issue 45, decision 0124): 'remove' takes them off the boards,
   * 'deleted_driver' keeps the times under the name "Deleted driver".
   */
  deleted_driver_laps: z.enum(['remove', 'deleted_driver']),
  /** Customers inactive this many years are anonymised by the nightly job; 0: never (default). */
  inactive_customer_years: z.number().int().min(0).max(20),
  /**
   * Availability before signing up (issue 45, decision 0123): visitors see each location's
   * seats, prices and free times, and the booking widget works. Off: 'Sign up or Log in to view
   * sim availability' first, as the spec has it.
   */
  public_availability: z.boolean(),
  /** Websites that may frame the booking widget (its page's frame-ancestors; nothing else). */
  widget_origins: z.array(frameOrigin).max(20),
  /** The venue's colour on the widget and the public availability page. */
  brand_colour: brandColour,
  /**
   * The rig session (issue 42, decision 0120): how a booked session's sim starts, and the rig
   * screen's warnings this many minutes before the booked end.
   */
  rig_start_mode: z.enum(['customer', 'automatic', 'staff']),
  rig_first_warning_minutes: z.number().int().min(1).max(30),
  rig_last_warning_minutes: z.number().int().min(1).max(10),
});
export type VenueSettings = z.infer<typeof venueSettings>;
export const venueSettingsUpdate = venueSettings.partial().strict();

export const DEFAULT_SETTINGS: VenueSettings = {
  club_enabled: true,
  club_name: 'Apex Club',
  company_name: 'Paddock Sim Racing',
  nav_links: [],
  logo_url: '',
  marketing_url: '',
  terms_text: DEFAULT_TERMS_TEXT,
  privacy_text: DEFAULT_PRIVACY_TEXT,
  header_images_enabled: true,
  header_image_url: '',
  header_image_height: 120,
  club_discount_percent: 20,
  club_min_sessions: 4,
  club_first_race_cents: 0,
  club_credits_per_session: 250,
  social_links: [],
  max_unpaid_reservations: 4,
  car_details_url: '',
  cancellation_window_hours: 24,
  club_cancellation_window_hours: null,
  late_cancellation_keep_percent: 100,
  waitlist_hold_minutes: 10,
  default_currency: DEFAULT_CURRENCY,
  backup_time: '03:30',
  backup_keep: 14,
  reminder_hours: 24,
  second_reminder_hours: 0,
  deleted_driver_laps: 'remove',
  inactive_customer_years: 0,
  public_availability: false,
  widget_origins: [],
  brand_colour: '#c62828',
  rig_start_mode: 'staff',
  rig_first_warning_minutes: 5,
  rig_last_warning_minutes: 1,
};

/** The car page 'View Car' embeds, or null for Paddock's own. */
export function carDetailsUrl(template: string, car: { id: number; key: string }): string | null {
  if (!template) return null;
  return template
    .replaceAll('{id}', String(car.id))
    .replaceAll('{key}', encodeURIComponent(car.key));
}

/** The venue's own time zone (club renewals, voucher expiry); locations keep their own. */
export const VENUE_TIMEZONE = 'America/Los_Angeles';

/** What `OPTIONS /api/` answers: the venue configuration the web app needs. */
export const venueConfig = venueSettings.extend({
  payment_provider: z.enum(['local', 'stripe']),
  stripe_publishable_key: z.string().nullable(),
  default_timezone: z.string(),
});
export type VenueConfig = z.infer<typeof venueConfig>;

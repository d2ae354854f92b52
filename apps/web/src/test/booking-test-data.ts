import { DateTime } from 'luxon';
import type {
  AvailResponse,
  Calendar,
  CalendarType,
  ParallelResponse,
  SlotState,
} from '@paddock/contract/calendars';
import type { QuoteResponse } from '@paddock/contract/checkout';
import type { Location } from '@paddock/contract/locations';
import type { Reservation } from '@paddock/contract/reservations';

/** Test data for the booking screens: a venue in Los Angeles, slots a few days ahead. */
export const ZONE = 'America/Los_Angeles';
export const DAY = DateTime.now().setZone(ZONE).plus({ days: 3 }).toISODate()!;
const offset = DateTime.fromISO(`${DAY}T14:00`, { zone: ZONE }).toFormat('ZZ');

export const slotTime = (hhmm: string) => `${DAY}T${hhmm}:00${offset}`;

export function location(id: number, name: string, extra: Partial<Location> = {}): Location {
  return {
    id,
    name,
    address: `${id} Main St`,
    timezone: ZONE,
    currency: 'USD',
    sales_tax_rate_percent: 8.875,
    booking_fee_cents: 200,
    booking_fees_threshold: 4,
    post_booking_url: '',
    cancellation_window_hours: null,
    late_cancellation_keep_percent: null,
    opening_hours: {},
    special_hours: {},
    ...extra,
  };
}

export const TYPES: CalendarType[] = [
  { id: 1, name: 'Pro Cockpit', image: '', description: '', is_vr: false, min_minutes: 30 },
  { id: 2, name: 'VR Rig', image: '', description: '', is_vr: true, min_minutes: 120 },
];

export function seat(id: number, name: string, locationId = 1): Calendar {
  return {
    id,
    name,
    cost_cents: 2500,
    cost_unit: '30 minutes',
    type: 1,
    type_name: 'Pro Cockpit',
    type_image: '',
    type_description: '',
    type_min_minutes: 30,
    image: '',
    event: null,
    location: locationId,
    currency: 'USD',
  };
}

export function availDay(states: Record<string, SlotState>): AvailResponse {
  return Object.fromEntries(
    Object.entries(states).map(([hhmm, state]) => {
      const key = `${DAY}T${hhmm}`;
      return [
        key,
        {
          slot: key,
          time: slotTime(hhmm),
          block: 30,
          state,
          available: state === 'free',
          reserved_by_me: state.startsWith('mine'),
          paid: state === 'mine_paid' ? true : state === 'mine_unpaid' ? false : null,
          is_blackout: state === 'blackout',
          past: state === 'past',
        },
      ];
    }),
  );
}

export function parallel(seats: Calendar[], starts: string[]): ParallelResponse {
  return seats.map((s) => ({
    ...s,
    slots: starts.map((hhmm) => ({ slot: `${DAY}T${hhmm}`, time: slotTime(hhmm) })),
  }));
}

export function quote(items: { calendar: Calendar; hhmm: string }[], voucherCents = 0) {
  const seats = items.length * 2500;
  const fees = items.length * 200;
  const preTax = seats + fees - voucherCents;
  const tax = Math.round((preTax * 8.875) / 100);
  const answer: QuoteResponse = {
    checkout_id: 100 + voucherCents,
    line_items: items.map(({ calendar, hhmm }) => ({
      calendar_name: calendar.name,
      calendar_type_name: calendar.type_name,
      calendar_cost_cents: 2500,
      calendar_qty: 1,
      calendar_total_cents: 2500,
      calendar_booking_fee_cents: 200,
      calendar_location: 1,
      time: slotTime(hhmm),
    })),
    subtotal_cents: seats + fees,
    discount_cents: voucherCents,
    pre_tax_cents: preTax,
    sales_tax_cents: tax,
    total_cents: preTax + tax,
    booking_fees_threshold: 4,
    credits_using: 0,
    credits_value_cents: 0,
    credits_program_saves: 1000 + fees,
  };
  return answer;
}

export function reservation(id: number, calendar: Calendar, hhmm: string): Reservation {
  return {
    id,
    time: slotTime(hhmm),
    calendar: calendar.id,
    slot: `${DAY}T${hhmm}`,
    subscription: null,
    paid_with_credits: false,
    paid: true,
    calendar_name: calendar.name,
    location: calendar.location,
    timezone: ZONE,
    location_name: 'Downtown',
    currency: 'USD',
    user: 7,
    user_display_name: 'Sam Racer',
    is_blackout: false,
    notes: '',
    created_by: 7,
    created_by_name: 'Sam Racer',
    checkout: 100,
    amount_cents: 2700,
    duration_minutes: 30,
    reservation_ids: [id],
  };
}

export const page = <T>(results: T[]) => ({
  count: results.length,
  page_count: 1,
  page_size: 100,
  results,
});

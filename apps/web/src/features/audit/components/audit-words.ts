import type { AuditEvent } from '@paddock/contract/audit';
import { PAYMENT_METHOD_LABELS } from '@paddock/contract/charges';
import { WEEKDAY_NAMES } from '@paddock/contract/locations';
import { formatMoney } from '@paddock/contract/money-format';
import { permissionLabel } from '@paddock/contract/permission-labels';
import {
  ASSIST_NAMES,
  HOST_SIGNAL_WORDS,
  SESSION_NAMES,
  type AssistKey,
  type HostSignal,
  type SessionType,
} from '@paddock/contract/races';

/** What an action's name means to the desk. */
export const ACTION_LABELS: Record<string, string> = {
  'planner.blackout': 'Blacked out times',
  'planner.delete': 'Deleted a reservation',
  'planner.book': 'Booked for a customer',
  'planner.move': 'Moved a reservation',
  'planner.attendance': 'Marked attendance',
  'planner.out_of_service': 'Took a seat out of service',
  'reservation.move': 'Moved a reservation',
  'reservation.cancel': 'Cancelled a reservation',
  'reservation.no_show': 'Marked a no-show',
  'reservation.no_show_undo': 'Undid a no-show',
  'refund.retry': 'Retried a refund',
  'checkout.refund_cancelled_while_paying':
    'Refunded a payment made after its booking was cancelled',
  'user.create_customer': 'Created a customer at the desk',
  'user.update': 'Changed account details',
  'user.clear_outstanding': 'Marked outstanding as paid',
  'user.desk_payment': 'Took a payment at the desk',
  'user.send_login_link': 'Sent a login link',
  'user.delete': 'Deleted a user',
  'user.export_data': 'Downloaded a customer’s data',
  'lap.review': 'Reviewed a lap',
  'voucher.issue': 'Issued a voucher',
  'voucher.void': 'Voided a voucher',
  'settings.update': 'Changed venue settings',
  'location.create': 'Added a location',
  'location.update': 'Changed a location',
  'location.opening_hours': 'Changed opening hours',
  'location.special_hours': 'Changed special hours',
  'seat.create': 'Added a seat',
  'seat.update': 'Changed a seat',
  'seat.price': 'Changed a seat price',
  'seat_type.create': 'Added a seat type',
  'seat_type.update': 'Changed a seat type',
  'page.create': 'Added a page',
  'page.update': 'Changed a page',
  'page.delete': 'Deleted a page',
  'staff.invite': 'Invited to the staff',
  'staff.make_staff': 'Made staff',
  'staff.remove_staff': 'Took off the staff',
  'staff.grant_permission': 'Granted a permission',
  'staff.revoke_permission': 'Revoked a permission',
  'staff.make_superuser': 'Made superuser',
  'staff.demote_superuser': 'No longer superuser',
  'rig_key.create': 'Made a rig key',
  'rig_key.revoke': 'Revoked a rig key',
  'rig_session.start': 'Session started on the rig (checked in)',
  'rig_session.extend': 'Extended a session on the rig by 30 minutes',
  'rig_session.report': 'The rig reported what it did with a session',
  'backups.take': 'Took a backup',
  'backups.download': 'Downloaded a backup',
  'races.host_party': 'Created a party',
  'races.rename_party': 'Renamed a party',
  'races.change_party': 'Changed a party',
  'races.start_party': 'Started a party at its time',
  'races.delete_party': 'Deleted a party',
  'races.add_member': 'Added a seat to a party',
  'races.remove_member': 'Took a seat out of a party',
  'races.change_event': 'Changed a race event',
  'races.signal': 'Signalled the rigs',
  'races.create_preset': 'Saved a race preset',
  'races.delete_preset': 'Deleted a race preset',
  'outbox.resend': 'Sent a mail again',
  'user.desk_payment_refund': 'Gave money back at the desk',
};

/** `snake_case` or `camelCase` as words: `menu_order` → "Menu order". */
function words(code: string): string {
  const spaced = code
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[._]/g, ' ')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** An action in words; one without its own label still reads as words, never as a code. */
export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? words(action);
}

const FIELD_LABELS: Record<string, string> = {
  calendar: 'Seat',
  party: 'Party',
  members: 'Seats',
  excluded_calendars: 'Seats left out',
  sent_to: 'Reached',
  not_connected: 'No rig connected',
  starts_at: 'Starts',
  track: 'Track',
  car: 'Car',
  cars: 'Cars',
  preset: 'Preset',
  sessions: 'Sessions',
  entries: 'Seats and cars',
  assists: 'Assists',
  signal: 'Signal',
  attendance: 'Attendance',
  refund: 'Refund',
  reason: 'Reason',
  free: 'Free cancellation',
  paid: 'Paid',
  payment: 'Payment',
  method: 'Method',
  charge: 'Payment number',
  credits: 'Club credits',
  card_status: 'Card refund',
  last_error: 'Card answer',
  walk_in: 'Walk-in',
  other_bookings: 'Other bookings',
  subject: 'Subject',
  to: 'To',
  status: 'Status',
  slot: 'Time',
  slots: 'Times',
  reservations: 'Bookings',
  reservation: 'Booking',
  moved: 'Moved to comparable seats',
  cancelled: 'Cancelled bookings',
  blackouts: 'Times blacked out',
  cost_cents: 'Price',
  contact_phone: 'Phone',
  contactPhone: 'Phone',
  email: 'E-mail',
  is_superuser: 'Superuser',
  is_staff: 'Staff',
  active: 'Bookable',
  type: 'Seat type',
  menu_order: 'Menu position',
  content: 'Text',
  sort_order: 'Position',
  steam_id: 'Steam account (SteamID64)',
  special_hours: 'Special hours',
  opening_hours: 'Opening hours',
};

/** Money fields are labelled by what the money is, never by their unit (`amount_cents`). */
const MONEY_LABELS: Record<string, string> = {
  cost_cents: 'Price',
  amount_cents: 'Amount',
  total_cents: 'Total',
  paid_cents: 'Paid',
  card_cents: 'To the card',
  voucher_cents: 'To the voucher',
  credits_cents: 'Club credits worth',
  tax_cents: 'Tax',
  fee_cents: 'Booking fees',
  charged_cents: 'Charged',
  price_difference_cents: 'Price difference',
  kept_cents: 'Kept',
  refund_cents: 'Refund',
};

export function fieldLabel(key: string): string {
  if (key.endsWith('_cents')) return MONEY_LABELS[key] ?? words(key.slice(0, -'_cents'.length));
  return FIELD_LABELS[key] ?? words(key);
}

/** Coded values in words: an attendance, a refund choice, a payment way, a card refund state. */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  attendance: { checked_in: 'Checked in', no_show: 'No-show' },
  refund: {
    policy: 'As the cancellation policy says',
    full: 'Full refund',
    none: 'No refund',
  },
  payment: { ...PAYMENT_METHOD_LABELS, desk: 'At the desk', card: 'Card' },
  method: PAYMENT_METHOD_LABELS,
  card_status: { none: 'None', pending: 'Waiting', succeeded: 'Refunded', failed: 'Failed' },
  status: { kept: 'Kept (no mail server)', sent: 'Sent' },
};
/** Keys whose empty value has a meaning of its own. */
const EMPTY_WORDS: Record<string, string> = { attendance: 'Not marked', starts_at: 'At once' };

/** An instant (`2026-12-01T18:00:00.000Z`), as opposed to a venue wall time (`…T18:00`). */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/;
/** A code (`no_show`, `SESSION_START`): shown as words when nothing better is known. */
const CODE = /^([a-z]+(_[a-z]+)+|[A-Z]+(_[A-Z]+)*)$/;

/** How an instant is shown: the venue's time (the table passes its formatter). */
export type When = (iso: string) => string;
const utc: When = (iso) => iso;

type Session = { name?: string; type: SessionType; duration: number; duration_is_laps: boolean };
function session(s: Session): string {
  const kind = SESSION_NAMES[s.type] ?? words(s.type);
  const length = `${s.duration} ${s.duration_is_laps ? 'laps' : 'min'}`;
  return s.name && s.name !== kind ? `${s.name} (${kind}, ${length})` : `${kind}, ${length}`;
}

type Names = Record<string, string>;

/** A named object by id: its name when it still exists, else what it was. */
function named(names: Names, kind: string, what: string, id: unknown): string {
  return names[`${kind}:${String(id)}`] ?? `${what} #${String(id)} (deleted)`;
}

type Range = { open: string; close: string };
const ranges = (list: Range[]) =>
  list.length ? list.map((r) => `${r.open}–${r.close}`).join(', ') : 'closed';

/** One field's value in words, ids as names, instants in the venue's time. */
export function fieldValue(key: string, value: unknown, names: Names, when: When = utc): string {
  if (value === null || value === undefined || value === '') return EMPTY_WORDS[key] ?? '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (key.endsWith('_cents') && typeof value === 'number') return formatMoney(value);
  if (typeof value === 'string' && VALUE_WORDS[key]?.[value]) return VALUE_WORDS[key][value];
  if (typeof value === 'string' && INSTANT.test(value)) return when(value);
  if (key === 'calendar') return named(names, 'calendar', 'seat', value);
  if ((key === 'members' || key === 'excluded_calendars') && Array.isArray(value))
    return value.length ? value.map((v) => named(names, 'calendar', 'seat', v)).join(', ') : 'none';
  if (key === 'track') return named(names, 'track', 'track', value);
  if (key === 'car') return named(names, 'car', 'car', value);
  if (key === 'cars' && Array.isArray(value))
    return value.length ? value.map((v) => named(names, 'car', 'car', v)).join(', ') : 'any';
  if (key === 'preset') return named(names, 'race_preset', 'preset', value);
  if (key === 'signal' && typeof value === 'string')
    return HOST_SIGNAL_WORDS[value as HostSignal] ?? words(value);
  if (key === 'sessions' && Array.isArray(value))
    return value.length ? (value as Session[]).map(session).join('; ') : 'none';
  if (key === 'assists' && Array.isArray(value))
    return value.length
      ? value.map((a) => ASSIST_NAMES[a as AssistKey] ?? words(String(a))).join(', ')
      : 'none';
  if (key === 'entries' && Array.isArray(value))
    return (value as { calendar: number; car?: number | null }[])
      .map(
        (e) =>
          `${named(names, 'calendar', 'seat', e.calendar)}: ${e.car ? named(names, 'car', 'car', e.car) : 'no car'}`,
      )
      .join('; ');
  if (key === 'location') return named(names, 'location', 'location', value);
  if (key === 'type') return named(names, 'calendar_type', 'seat type', value);
  if (key === 'user') return named(names, 'user', 'user', value);
  if (key === 'permission' && typeof value === 'string') return permissionLabel(value);
  if (key === 'permissions' && Array.isArray(value))
    return value.length ? value.map((p) => permissionLabel(String(p))).join('; ') : 'none';
  if (key === 'slot' && typeof value === 'string') return value.replace('T', ' ');
  if (key === 'slots' && Array.isArray(value))
    return (value as { calendar: number; slot: string }[])
      .map((s) => `${named(names, 'calendar', 'seat', s.calendar)} at ${s.slot.replace('T', ' ')}`)
      .join('; ');
  if (key === 'special_hours' && typeof value === 'object')
    return (
      Object.entries(value as Record<string, Range[]>)
        .map(([date, list]) => `${date}: ${ranges(list)}`)
        .join('; ') || 'none'
    );
  if (key === 'opening_hours' && typeof value === 'object')
    return (
      Object.entries(value as Record<string, Range[]>)
        .map(([day, list]) => `${WEEKDAY_NAMES[Number(day) - 1] ?? day}: ${ranges(list)}`)
        .join('; ') || 'closed every day'
    );
  if (Array.isArray(value))
    return value.length ? value.map((v) => fieldValue(key, v, names, when)).join(', ') : 'none';
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${fieldLabel(k)}: ${fieldValue(k, v, names, when)}`)
      .join(', ');
  if (typeof value === 'string' && CODE.test(value)) return words(value);
  return String(value);
}

/** Fields that are plumbing, not something the desk reads (ids of rows it cannot open). */
const HIDDEN = new Set(['event', 'reservations', 'id']);

/** `before` or `after` as lines of "Field: value". */
export function fieldLines(value: unknown, names: Names, when: When = utc): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || Array.isArray(value)) return fieldValue('', value, names, when);
  return Object.entries(value as Record<string, unknown>)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => `${fieldLabel(k)}: ${fieldValue(k, v, names, when)}`)
    .join('\n');
}

/**
 * A row the trail keeps beside a richer one of the same act: deleting with a refund writes
 * `planner.delete` and `reservation.cancel` for one booking; a no-show marked with its money
 * writes `planner.attendance` and `reservation.no_show`.
 */
const SUPERSEDED_BY: Record<string, string> = {
  'planner.delete': 'reservation.cancel',
  'planner.attendance': 'reservation.no_show',
};

/** One act of one staff member: the trail's rows written together (one transaction). */
export type AuditAct = {
  key: string;
  first: AuditEvent;
  /** The act's rows, without those a richer row of the same act says better. */
  events: AuditEvent[];
  /** What was done, in words: "Cancelled a reservation", "Marked attendance (3 bookings)". */
  label: string;
};

/**
 * The trail by act: rows of one transaction (same instant) by the same person about the same
 * customer are one act, shown as one row. Rows keep their order (newest first).
 */
export function groupActs(events: AuditEvent[]): AuditAct[] {
  const acts = new Map<string, AuditEvent[]>();
  for (const e of events) {
    const key = `${e.at}|${e.actor ?? 'system'}|${e.subject_user ?? '-'}`;
    const list = acts.get(key);
    if (list) list.push(e);
    else acts.set(key, [e]);
  }
  return [...acts].map(([key, list]) => {
    const actions = new Set(list.map((e) => e.action));
    const kept = list.filter((e) => !actions.has(SUPERSEDED_BY[e.action] ?? ''));
    const labels = [...new Set(kept.map((e) => actionLabel(e.action)))];
    const label =
      kept.length > 1 && labels.length === 1
        ? `${labels[0]} (${kept.length} ${kept[0].target_type === 'reservation' ? 'bookings' : 'times'})`
        : labels.join('; ');
    return { key, first: list[0], events: kept, label };
  });
}

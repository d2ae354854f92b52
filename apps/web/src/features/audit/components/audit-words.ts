import { WEEKDAY_NAMES } from '@paddock/contract/locations';
import { formatMoney } from '@paddock/contract/money-format';
import { permissionLabel } from '@paddock/contract/permission-labels';

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
  'refund.retry': 'Retried a refund',
  'checkout.refund_cancelled_while_paying':
    'Refunded a payment made after its booking was cancelled',
  'user.create_customer': 'Created a customer at the desk',
  'user.update': 'Changed account details',
  'user.clear_outstanding': 'Marked outstanding as paid',
  'user.desk_payment': 'Took a payment at the desk',
  'user.send_login_link': 'Sent a login link',
  'user.delete': 'Deleted a user',
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
  'backups.take': 'Took a backup',
  'backups.download': 'Downloaded a backup',
  'races.host_party': 'Created a party',
  'races.rename_party': 'Renamed a party',
  'races.delete_party': 'Deleted a party',
  'races.add_member': 'Added a seat to a party',
  'races.remove_member': 'Took a seat out of a party',
  'races.change_event': 'Changed a race event',
  'races.signal': 'Signalled the rigs',
  'races.create_preset': 'Saved a race preset',
  'races.delete_preset': 'Deleted a race preset',
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
  special_hours: 'Special hours',
  opening_hours: 'Opening hours',
};

export function fieldLabel(key: string): string {
  return FIELD_LABELS[key] ?? words(key);
}

type Names = Record<string, string>;

/** A named object by id: its name when it still exists, else what it was. */
function named(names: Names, kind: string, what: string, id: unknown): string {
  return names[`${kind}:${String(id)}`] ?? `${what} #${String(id)} (deleted)`;
}

type Range = { open: string; close: string };
const ranges = (list: Range[]) =>
  list.length ? list.map((r) => `${r.open}–${r.close}`).join(', ') : 'closed';

/** One field's value in words, ids as names. */
export function fieldValue(key: string, value: unknown, names: Names): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (key.endsWith('_cents') && typeof value === 'number') return formatMoney(value);
  if (key === 'calendar') return named(names, 'calendar', 'seat', value);
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
  if (Array.isArray(value)) return value.map((v) => fieldValue('', v, names)).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${fieldLabel(k)}: ${fieldValue(k, v, names)}`)
      .join(', ');
  return String(value);
}

/** `before` or `after` as lines of "Field: value". */
export function fieldLines(value: unknown, names: Names): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' || Array.isArray(value)) return fieldValue('', value, names);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${fieldLabel(k)}: ${fieldValue(k, v, names)}`)
    .join('\n');
}

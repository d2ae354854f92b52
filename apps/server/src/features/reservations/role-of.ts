import type { Role } from '../../lib/slots';
import { hasPermission, type AuthUser } from '../../plugins/auth';

// Its own module: the unpaid limit and the calendars need it, and the reservations service needs
// them, so taking it from the service made import circles (decision 0086).
export const roleOf = (user: AuthUser | null): Role =>
  hasPermission(user, 'reservations.change_reservation') ? 'staff' : 'customer';

import { Navigate, useLocation } from 'react-router';
import { pathTo } from '../../../lib/routes';

/**
 * /reservations: the spec does not show this screen, yet signup and voucher purchase end here.
 * It opens the booking screen, keeping the query (e.g. ?location=2).
 */
export default function ReservationsScreen() {
  const { search } = useLocation();
  return <Navigate to={`${pathTo('reservationsAdvanced')}${search}`} replace />;
}

import type { Reservation } from '@paddock/contract/reservations';
import { api } from '../../../lib/api-client';

export type NewReservation = {
  time: string;
  slot: string;
  calendar: number;
  subscription: number | null;
};

/** `POST /api/reservations`: books one seat-slot ("Book It!", spec §2). */
export function createReservation(body: NewReservation) {
  return api<Reservation>('/reservations', { method: 'POST', body });
}

import type { DeskCustomerRequest, DeskCustomerResponse } from '@paddock/contract/desk-customers';
import { api } from '../../../lib/api-client';

/** `POST /api/users/desk`: a walk-in's account, made by staff (decision 0082). */
export function createDeskCustomer(body: DeskCustomerRequest) {
  return api<DeskCustomerResponse>('/users/desk', { method: 'POST', body });
}

import { SIGN_UP_TO_SEE_AVAILABILITY } from '@paddock/contract/booking-words';

/**
 * Spec §2 route guards: signup explains itself by where the visitor was going.
 * Other targets get no prompt.
 */
export function signupPrompt(redirect: string | null): string | null {
  if (!redirect) return null;
  const path = redirect.split(/[?#]/)[0];
  if (path === '/reservations' || path.startsWith('/reservations/')) {
    return SIGN_UP_TO_SEE_AVAILABILITY;
  }
  if (path === '/vouchers/purchase') return 'Sign up or Log in to purchase a voucher';
  if (path === '/subscription' || path.startsWith('/subscription/')) {
    return 'Sign up or Log in to create a subscription';
  }
  return null;
}

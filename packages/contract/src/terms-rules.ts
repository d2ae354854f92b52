// zod-free: the web's footer shows the Terms on every page, so what it needs of the venue
// contract lives here, out of the first paint's zod (decision 0045; issue 46, decision 0126).

/** Where the Terms name the venue's cancellation window (decision 0089); staff may use it too. */
export const CANCELLATION_HOURS_PLACEHOLDER = '{cancellation_window_hours}';

/**
 * The Terms as customers read them: the cancellation window comes from the policy setting, the
 * one source every other text (checkout, bookings, e-mails) reads, so they cannot disagree.
 */
export const termsWithPolicy = (text: string, policy: { cancellation_window_hours: number }) =>
  text.replaceAll(CANCELLATION_HOURS_PLACEHOLDER, String(policy.cancellation_window_hours));

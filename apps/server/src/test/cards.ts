import type { App } from '../deps';

/** Whatever answers the API: a test app, or one built on another database. */
type Ctx = { app: App };
import { bearer, type CreatedUser } from './factories';

/** An expiry safely in the future. */
export const FUTURE_YEAR = new Date().getUTCFullYear() + 3;

/** Tokenizes a test card number through the local provider's endpoint; answers the `tok_…`. */
export async function tokenizeCard(t: Ctx, number = '4242424242424242'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/local/tokens',
    payload: { number, exp_month: 12, exp_year: FUTURE_YEAR, cvc: '123', postal_code: '94107' },
  });
  if (res.statusCode !== 200) throw new Error(`tokenize ${number}: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

/**
 * Gives a user a saved card, as the web does: tokenize, then POST /users/me/card; a card whose
 * bank asks for 3-D Secure (4000 0027 6000 3184, …3155, 4000 0084 0000 1629) passes the local
 * challenge page, then the setup is sent back.
 * 4000 0000 0000 0341 saves fine and declines every charge; …9995 has insufficient funds.
 */
export async function saveTestCard(t: Ctx, user: CreatedUser, number = '4242424242424242') {
  const token = await tokenizeCard(t, number);
  const post = (payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/me/card',
      headers: bearer(user.token),
      payload,
    });
  let res = await post({ token });
  if (res.statusCode === 200 && res.json().status === 'requires_action') {
    await answerChallenge(t, res.json().challenge_url, 'complete');
    res = await post({ setup_intent: res.json().setup_intent });
  }
  if (res.statusCode !== 200) throw new Error(`save card ${number}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Presses a button of the local provider's challenge page; answers where it sends the browser. */
export async function answerChallenge(t: Ctx, challengeUrl: string, outcome: 'complete' | 'fail') {
  const res = await t.app.inject({
    method: 'POST',
    url: new URL(challengeUrl).pathname,
    headers: { 'content-type': 'text/plain' },
    payload: `outcome=${outcome}\r\n`,
  });
  if (res.statusCode !== 303) throw new Error(`challenge: ${res.statusCode} ${res.body}`);
  return res.headers.location as string;
}

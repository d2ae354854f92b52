import { bearer, type CreatedUser } from './factories';
import type { TestApp } from './test-app';

/**
 * A POST as `user` through the app: `post(user, url, payload?)`. The test app is read at each
 * call (`() => t`), as a test file makes it in its beforeAll.
 */
export const userPost =
  (app: () => TestApp) => (user: CreatedUser, url: string, payload?: object) =>
    app().app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

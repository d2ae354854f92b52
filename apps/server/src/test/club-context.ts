import type { ClubContext } from '../features/club/club.service';
import { mailDeps, type TestApp } from './test-app';

/** What the club's services take (joining, cancelling, settling a challenge), from the test app. */
export function clubContext(t: TestApp): ClubContext {
  return {
    db: t.db,
    payments: t.deps.payments,
    publicUrl: t.deps.config.publicUrl,
    mail: mailDeps(t),
  };
}

import { Link } from 'react-router';
import { permissionLabel } from '@paddock/contract/permission-labels';
import { PageTitle } from '../../components/page-title';
import { hasPermission, isStaff, useSession } from '../../lib/auth-store';
import { pathTo } from '../../lib/routes';
import type { Access } from '../route-access';

export const FORBIDDEN_TITLE = 'You do not have access to this page';

/**
 * A signed-in user opened a screen they lack the rights for (issue 30): they stay signed in and
 * are told what is missing, in words, so they can ask a manager for it.
 */
export function ForbiddenScreen({ access }: { access: Access | undefined }) {
  const session = useSession();
  const missing = (access?.permissions ?? []).filter((p) => !hasPermission(session, p));
  const needsStaff = !!access?.staff && !isStaff(session);
  const needsSuperuser = !!access?.superuser && !session?.permissions?.is_superuser;
  return (
    <section className="py-4">
      <PageTitle className="h2">{FORBIDDEN_TITLE}</PageTitle>
      <p className="lead">Error 403: your account may not open this page.</p>
      {(needsStaff || needsSuperuser || missing.length > 0) && (
        <>
          <p>It needs:</p>
          <ul>
            {needsStaff && <li>A staff account</li>}
            {needsSuperuser && <li>A superuser account (no permission grants it)</li>}
            {missing.map((p) => (
              <li key={p}>{permissionLabel(p)}</li>
            ))}
          </ul>
          <p>A manager who holds these can grant them on the Staff screen.</p>
        </>
      )}
      <Link className="btn btn-primary" to={pathTo('dashboard')}>
        Go to the Dashboard
      </Link>
    </section>
  );
}

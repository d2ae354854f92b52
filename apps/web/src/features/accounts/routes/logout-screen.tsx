import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { pathTo } from '../../../lib/routes';
import { useEndSession } from '../../../lib/session';

/** /logout: clears the session, then goes to signup (spec §2). */
export default function LogoutScreen() {
  const endSession = useEndSession();
  const navigate = useNavigate();
  useEffect(() => {
    endSession();
    navigate(pathTo('signup'), { replace: true });
  }, [endSession, navigate]);
  return (
    <>
      <h1 className="visually-hidden">Log Out</h1>
      <SpinnerScreen label="Logging out…" />
    </>
  );
}

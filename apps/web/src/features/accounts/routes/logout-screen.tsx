import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { pathTo } from '../../../lib/routes';
import { useLogOut } from '../../../lib/session';

/** /logout: clears the session, then goes to signup (spec §2). */
export default function LogoutScreen() {
  const logOut = useLogOut();
  const navigate = useNavigate();
  useEffect(() => {
    // Someone who moved on while the server was answering stays where they went.
    let here = true;
    void logOut().then(() => {
      if (here) navigate(pathTo('signup'), { replace: true });
    });
    return () => {
      here = false;
    };
  }, [logOut, navigate]);
  return (
    <>
      <h1 className="visually-hidden">Log Out</h1>
      <SpinnerScreen label="Logging out…" />
    </>
  );
}

import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { useCurrentUser } from '../../../lib/current-user';
import { ProfileForm } from '../components/profile-form';

/** /profile (spec §2). */
export default function ProfileScreen() {
  const user = useCurrentUser();
  return (
    <section className="mx-auto" style={{ maxWidth: 720 }}>
      <PageTitle>My Profile</PageTitle>
      {user.data ? <ProfileForm user={user.data} /> : <SpinnerScreen />}
    </section>
  );
}

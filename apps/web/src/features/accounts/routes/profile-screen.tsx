import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { useCurrentUser } from '../../../lib/current-user';
import { ProfileForm } from '../components/profile-form';
import { MyDataCard } from '../components/my-data-card';

/** /profile (spec §2). */
export default function ProfileScreen() {
  const user = useCurrentUser();
  return (
    <section className="mx-auto" style={{ maxWidth: 720 }}>
      <PageTitle>My Profile</PageTitle>
      {user.data ? <ProfileForm user={user.data} /> : <SpinnerScreen />}
      {user.data && <MyDataCard />}
    </section>
  );
}

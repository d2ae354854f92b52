import { ProfileForm } from '../../features/accounts/components/profile-form';
import { AdminUserScreen } from '../../features/admin-users/routes/admin-user-screen';
import { CustomerTrail } from '../../features/audit/components/customer-trail';
import { TransactionsModal } from '../../features/charges/components/transactions-modal';

/**
 * Staff spec §8 /admin/users/:id: the admin-users screen with the parts other features own
 * (decision 0105: features are composed here, not in each other).
 */
export default function AdminUser() {
  return (
    <AdminUserScreen
      ProfileForm={ProfileForm}
      TransactionsModal={TransactionsModal}
      CustomerTrail={CustomerTrail}
    />
  );
}

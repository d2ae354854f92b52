import { PageTitle } from '../../../components/page-title';
import { VoucherBalanceForm } from '../components/voucher-balance-form';

/** /vouchers/balance — the spec does not show it; it offers the same form as the footer modal. */
export default function VoucherBalanceScreen() {
  return (
    <section className="mx-auto" style={{ maxWidth: 480 }}>
      <PageTitle>Voucher Balance</PageTitle>
      <VoucherBalanceForm />
    </section>
  );
}

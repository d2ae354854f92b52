import { PageTitle } from '../../../components/page-title';

/** Purchase Gift Voucher — spec customer §2 /vouchers/purchase. Navigation and footer only until that work lands. */
export default function PurchaseVoucherScreen() {
  return <PageTitle visuallyHidden>Purchase Gift Voucher</PageTitle>;
}

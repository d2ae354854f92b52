import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { useTermsModals } from '../../components/terms-modals';
import { useSession } from '../../lib/auth-store';
import { pathTo, type RouteName } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';

// Loaded when first opened: the modal's code is not needed for the first paint.
const VoucherBalanceModal = lazy(() =>
  import('../../features/vouchers/components/voucher-balance-modal').then((m) => ({
    default: m.VoucherBalanceModal,
  })),
);

function FooterLink({ to, children }: { to: RouteName; children: ReactNode }) {
  return (
    <li className="list-inline-item">
      <Link className="link-light d-inline-block py-1" to={pathTo(to)}>
        {children}
      </Link>
    </li>
  );
}

/** Footer entries that open a modal rather than a page. */
function FooterButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <li className="list-inline-item">
      <Button variant="link" className="px-0 py-1 link-light" onClick={onClick}>
        {children}
      </Button>
    </li>
  );
}

/**
 * Footer (spec §2): Terms of Service; Change Password (logged in) or Forgot Password and
 * Create an Account (logged out); Log Out; Purchase Gift Voucher; Voucher Balance; copyright.
 */
export function SiteFooter() {
  const session = useSession();
  const config = useVenueConfig();
  const { openTerms } = useTermsModals();
  const [balanceOpen, setBalanceOpen] = useState(false);
  const [balanceUsed, setBalanceUsed] = useState(false);
  if (balanceOpen && !balanceUsed) setBalanceUsed(true);
  const year = new Date().getFullYear();

  return (
    <footer className="bg-dark text-light mt-auto py-4" data-bs-theme="dark">
      <Container>
        <nav aria-label="Footer">
          <ul className="list-inline mb-2">
            <FooterButton onClick={openTerms}>Terms of Service</FooterButton>
            {session ? (
              <FooterLink to="change_password">Change Password</FooterLink>
            ) : (
              <>
                <FooterLink to="forgot_password">Forgot Password</FooterLink>
                <FooterLink to="signup">Create an Account</FooterLink>
              </>
            )}
            <FooterLink to="logout">Log Out</FooterLink>
            <FooterLink to="purchaseVoucher">Purchase Gift Voucher</FooterLink>
            <FooterButton onClick={() => setBalanceOpen(true)}>Voucher Balance</FooterButton>
          </ul>
        </nav>
        <p className="text-white-50 small mb-0">
          &copy; {year} {config.company_name}. All rights reserved.
        </p>
      </Container>
      {balanceUsed && (
        <Suspense fallback={null}>
          <VoucherBalanceModal show={balanceOpen} onHide={() => setBalanceOpen(false)} />
        </Suspense>
      )}
    </footer>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { useTermsModals } from '../../components/terms-modals';
import { useSession } from '../../lib/auth-store';
import { pathTo } from '../../lib/routes';
import { useVenueConfig } from '../../lib/venue-config';
import { VoucherBalanceModal } from '../../features/vouchers/components/voucher-balance-modal';

/**
 * Footer (spec §2): Terms of Service; Change Password (logged in) or Forgot Password and
 * Create an Account (logged out); Log Out; Purchase Gift Voucher; Voucher Balance; copyright.
 */
export function SiteFooter() {
  const session = useSession();
  const config = useVenueConfig();
  const { openTerms } = useTermsModals();
  const [balanceOpen, setBalanceOpen] = useState(false);
  const year = new Date().getFullYear();

  return (
    <footer className="bg-dark text-light mt-auto py-4" data-bs-theme="dark">
      <Container>
        <nav aria-label="Footer">
          <ul className="list-inline mb-2">
            <li className="list-inline-item">
              <Button variant="link" className="p-0 link-light" onClick={openTerms}>
                Terms of Service
              </Button>
            </li>
            {session ? (
              <li className="list-inline-item">
                <Link className="link-light" to={pathTo('change_password')}>
                  Change Password
                </Link>
              </li>
            ) : (
              <>
                <li className="list-inline-item">
                  <Link className="link-light" to={pathTo('forgot_password')}>
                    Forgot Password
                  </Link>
                </li>
                <li className="list-inline-item">
                  <Link className="link-light" to={pathTo('signup')}>
                    Create an Account
                  </Link>
                </li>
              </>
            )}
            <li className="list-inline-item">
              <Link className="link-light" to={pathTo('logout')}>
                Log Out
              </Link>
            </li>
            <li className="list-inline-item">
              <Link className="link-light" to={pathTo('purchaseVoucher')}>
                Purchase Gift Voucher
              </Link>
            </li>
            <li className="list-inline-item">
              <Button
                variant="link"
                className="p-0 link-light"
                onClick={() => setBalanceOpen(true)}
              >
                Voucher Balance
              </Button>
            </li>
          </ul>
        </nav>
        <p className="text-white-50 small mb-0">
          &copy; {year} {config.company_name}. All rights reserved.
        </p>
      </Container>
      <VoucherBalanceModal show={balanceOpen} onHide={() => setBalanceOpen(false)} />
    </footer>
  );
}

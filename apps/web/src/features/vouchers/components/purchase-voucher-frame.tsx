import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { PageTitle } from '../../../components/page-title';

/** The purchase page's frame: its title and card, around the form, the challenge's end or the code. */
export function PurchaseVoucherFrame({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <PageTitle>Purchase Gift Voucher</PageTitle>
      <Card>
        <Card.Body>{children}</Card.Body>
      </Card>
    </section>
  );
}

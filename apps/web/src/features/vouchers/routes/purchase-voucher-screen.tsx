import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { Voucher } from '@paddock/contract/vouchers';
import { PageTitle } from '../../../components/page-title';
import { cardQuery, saveCard } from '../../../components/payment-method/card-api';
import { CARD_SAVED, CardEntry } from '../../../components/payment-method/payment-method-panel';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { TermsLink } from '../../../components/terms-modals';
import { showAlert, showError } from '../../../lib/alerts';
import { useCurrentUser, userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { formatMoney } from '@paddock/contract/money-format';
import { pathTo, safeRedirect } from '../../../lib/routes';
import { purchaseVoucher } from '../api/purchase-voucher';
import { VoucherPurchaseForm } from '../components/voucher-purchase-form';
import { toPurchaseBody, type VoucherFormValues } from '../voucher-purchase-rules';

export const CARD_REQUIRED_FOR_VOUCHER =
  'A card on file is required to purchase a gift voucher. Add one to continue.';

type Purchased = Voucher & { emailTo: string | null };

/** ABCDEFGHJKLM → ABCD-EFGH-JKLM, as the voucher e-mail writes it (dashes are ignored on entry). */
export const groupedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

function VoucherReady({ voucher, onDone }: { voucher: Purchased; onDone: () => void }) {
  // The form is gone: keyboard and screen-reader users continue from the news.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div>
      <h2 className="h4 card-title" tabIndex={-1} ref={heading}>
        Your gift voucher is ready
      </h2>
      <p>A {formatMoney(voucher.amount_cents, voucher.currency)} gift voucher. Its code is:</p>
      <p className="display-6 font-monospace text-center my-4 text-break">
        {groupedCode(voucher.code)}
      </p>
      <p>
        {voucher.emailTo
          ? `We've e-mailed the code to ${voucher.emailTo}.`
          : "We've e-mailed the code to you too."}
      </p>
      <Button size="lg" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

/**
 * /vouchers/purchase (customer §2, §4, §5): the form, then the code, then done, which goes to
 * query `redirect` or the booking screen. Without a saved card the card form comes first.
 */
export default function PurchaseVoucherScreen() {
  const user = useCurrentUser().data;
  const client = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const card = useQuery({ ...cardQuery(user?.id ?? 0), enabled: !!user });
  const [purchased, setPurchased] = useState<Purchased | null>(null);

  const submit = async (values: VoucherFormValues) => {
    const body = toPurchaseBody(values);
    try {
      const voucher = await purchaseVoucher(body);
      setPurchased({ ...voucher, emailTo: body.email_to ?? null });
      void client.invalidateQueries({ queryKey: ['users', 'me', 'charges'] });
    } catch (error) {
      showError(error);
    }
  };

  const done = () =>
    void navigate(safeRedirect(params.get('redirect'), pathTo('reservationsAdvanced')));

  const onCardToken = async (token: string) => {
    if (!user) return;
    await saveCard(user.id, token);
    await Promise.all([
      client.invalidateQueries({ queryKey: userQuery(user.id).queryKey, exact: true }),
      client.refetchQueries(cardQuery(user.id)),
    ]);
    showAlert(CARD_SAVED, 'success', 5_000);
  };

  let body;
  if (!user || card.isPending) body = <SpinnerScreen />;
  else if (card.isError) body = <p className="text-danger">{errorMessage(card.error)}</p>;
  else if (purchased) body = <VoucherReady voucher={purchased} onDone={done} />;
  else if (!card.data) {
    body = (
      <>
        <h2 className="h4 card-title mb-3">Payment Method</h2>
        <p className="fw-semibold">{CARD_REQUIRED_FOR_VOUCHER}</p>
        <CardEntry submitLabel="Add Payment Method" onToken={onCardToken} />
        <p className="small text-body-secondary mt-3 mb-0">
          By saving a payment method you agree to our <TermsLink />.
        </p>
      </>
    );
  } else {
    body = (
      <VoucherPurchaseForm
        onSubmit={submit}
        paymentNote={`Your ${card.data.brand} ending in ${card.data.last4} will be charged.`}
      />
    );
  }

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <PageTitle>Purchase Gift Voucher</PageTitle>
      <Card>
        <Card.Body>{body}</Card.Body>
      </Card>
    </section>
  );
}

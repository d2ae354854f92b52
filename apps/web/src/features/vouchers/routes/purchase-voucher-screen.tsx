import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { cardQuery, saveCard } from '../../../components/payment-method/card-api';
import { CARD_SAVED, CardEntry } from '../../../components/payment-method/payment-method-panel';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { TermsLink } from '../../../components/terms-modals';
import { showAlert, showError } from '../../../lib/alerts';
import { useCurrentUser, userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { pathTo, safeRedirect } from '../../../lib/routes';
import { completeVoucherPurchase, purchaseVoucher } from '../api/purchase-voucher';
import { PurchaseVoucherFrame } from '../components/purchase-voucher-frame';
import { VoucherReady, type Purchased } from '../components/voucher-ready';
import { runChallenge } from '../../../components/payment-method/challenge';
import { VoucherPurchaseForm } from '../components/voucher-purchase-form';
import { toPurchaseBody, type VoucherFormValues } from '../voucher-purchase-rules';

export const CARD_REQUIRED_FOR_VOUCHER =
  'A card on file is required to purchase a gift voucher. Add one to continue.';

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
      let answer = await purchaseVoucher(body);
      // The bank asks for 3-D Secure (decision 0095): Stripe's challenge over the page, then
      // the purchase is completed; the local provider's page comes back to the finishing page.
      if ('status' in answer) {
        await runChallenge(answer);
        answer = await completeVoucherPurchase(answer.purchase);
        if ('status' in answer) throw new Error('The authentication is not complete yet.');
      }
      setPurchased({ ...answer, emailTo: body.email_to ?? null });
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

  return <PurchaseVoucherFrame>{body}</PurchaseVoucherFrame>;
}

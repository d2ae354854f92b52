import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import { ChallengeStillOpen } from '../../../components/payment-method/challenge-still-open';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { completeVoucherPurchase } from '../api/purchase-voucher';
import { PurchaseVoucherFrame } from '../components/purchase-voucher-frame';
import { VoucherReady } from '../components/voucher-ready';

/**
 * Where the local provider's 3-D Secure page brings the buyer back (decision 0095): the
 * purchase is completed, which finishes it as the challenge ended (the voucher, or nothing
 * charged with one message); a challenge still open offers its page again.
 */
export default function VoucherAuthenticatedScreen() {
  const id = Number(useParams().id);
  const client = useQueryClient();
  const navigate = useNavigate();
  const finish = useMutation({
    mutationFn: () => completeVoucherPurchase(id),
    onSettled: () => client.invalidateQueries({ queryKey: ['users', 'me', 'charges'] }),
  });
  const { mutate } = finish;
  useEffect(() => mutate(), [mutate]);

  let body;
  if (finish.isIdle || finish.isPending) body = <SpinnerScreen label="Finishing your purchase…" />;
  else if (finish.isError)
    body = (
      <>
        <Alert variant="danger">{errorMessage(finish.error)}</Alert>
        <Link className="btn btn-primary" to={pathTo('purchaseVoucher')}>
          Purchase Gift Voucher
        </Link>
      </>
    );
  else if ('status' in finish.data)
    body = <ChallengeStillOpen challengeUrl={finish.data.challenge_url} />;
  else
    body = (
      <VoucherReady
        voucher={{ ...finish.data, emailTo: finish.data.email_to }}
        onDone={() => void navigate(pathTo('reservationsAdvanced'))}
      />
    );

  return <PurchaseVoucherFrame>{body}</PurchaseVoucherFrame>;
}

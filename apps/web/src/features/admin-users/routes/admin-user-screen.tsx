import { useState, type ComponentType } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { loginLinkSentMessage, type User } from '@paddock/contract/accounts';
import { NO_CARD_FOR_CLUB_MESSAGE } from '@paddock/contract/club';
import type { DeskPaymentResponse } from '@paddock/contract/desk-payments';
import { DEFAULT_CURRENCY } from '@paddock/contract/money-format';
import { PageTitle } from '../../../components/page-title';
import { cardQuery } from '../../../components/payment-method/card-api';
import { PaymentMethodPanel } from '../../../components/payment-method/payment-method-panel';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { showAlert, showError } from '../../../lib/alerts';
import { displayName, userQuery } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';
import { balanceQuery } from '../../../lib/api/get-balance';
import { fetchMyData, saveAsFile } from '../../../lib/api/my-data-file';
import { hasPermission, useSession } from '../../../lib/auth-store';
import { TakePaymentModal } from '../../../components/take-payment/take-payment-modal';
import { deleteUser } from '../api/delete-user';
import { sendLoginLink } from '../api/send-login-link';
import { BalanceAlert } from '../components/balance-alert';
import { DisputeAlert } from '../components/dispute-alert';
import { disputesQuery } from '../api/list-disputes';
import { DeleteUserModal } from '../components/delete-user-modal';
import { HistoryModal } from '../components/history-modal';

// Staff spec §8, word for word.
export const USER_CHANGED = 'User successfully changed';
export const USER_DELETED = 'Successfully deleted';
export const USER_DELETE_FAILED = "Couldn't delete user!";
/** Staff spec §9: the card widget mounts after 500 ms. */
export const CARD_WIDGET_DELAY_MS = 500;

export const stripeCustomerUrl = (customerId: string) =>
  `https://dashboard.stripe.com/customers/${encodeURIComponent(customerId)}`;

/**
 * The parts of the page that other features own, passed in by app/ (decision 0105): the profile
 * form (accounts), the charges modal (charges) and the audit trail (audit).
 */
export type AdminUserParts = {
  ProfileForm: ComponentType<{
    user: User;
    title: string;
    savedMessage: string;
    allowUsernameChange: boolean;
  }>;
  TransactionsModal: ComponentType<{
    show: boolean;
    onHide: () => void;
    userId: number;
    title: string;
  }>;
  CustomerTrail: ComponentType<{ userId: number }>;
};

type ChargesModal = Pick<AdminUserParts, 'TransactionsModal'>;

/** History back inside the app, or the planner when the page was opened directly. */
function useGoBack() {
  const navigate = useNavigate();
  return () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate(pathTo('adminCalendars'));
  };
}

function Indicators({ user }: { user: User }) {
  return (
    <div className="d-flex flex-wrap gap-4 mb-3">
      <Form.Check
        type="switch"
        role="switch"
        id="indicator-subscription"
        label="Active Subscription"
        checked={user.credits_subscription_in_good_standing}
        disabled
        readOnly
      />
      <Form.Check
        type="switch"
        role="switch"
        id="indicator-admin"
        label="Admin"
        checked={user.is_staff || user.is_superuser}
        disabled
        readOnly
      />
    </div>
  );
}

/** Staff spec §2 View Customer: Stripe's dashboard, or Paddock's own list of the charges. */
function ViewCustomer({ user, TransactionsModal }: { user: User } & ChargesModal) {
  const config = useVenueConfig();
  const [open, setOpen] = useState(false);
  if (config.payment_provider === 'stripe') {
    return user.customer_id ? (
      <Button
        variant="outline-primary"
        href={stripeCustomerUrl(user.customer_id)}
        target="_blank"
        rel="noreferrer"
      >
        View Customer in Stripe
        <span className="visually-hidden"> (opens in a new tab)</span>
      </Button>
    ) : (
      <Button variant="outline-primary" disabled>
        View Customer in Stripe
      </Button>
    );
  }
  return (
    <>
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        View Customer Charges
      </Button>
      <TransactionsModal
        show={open}
        onHide={() => setOpen(false)}
        userId={user.id}
        title={`Charges of ${displayName(user)}`}
      />
    </>
  );
}

function Actions({
  user,
  owed,
  currency,
  TransactionsModal,
}: { user: User; owed: number; currency: string } & ChargesModal) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const card = useQuery(cardQuery(user.id));
  const [historyOpen, setHistoryOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const privileged = user.is_staff || user.is_superuser;
  const here = pathTo('adminUser', { userId: user.id });
  // A customer's data file, for staff who hold customers' accounts (audited, decision 0124).
  const session = useSession();
  const mayExport = !privileged && hasPermission(session, 'user.change_user');
  const downloadData = async () => {
    try {
      saveAsFile(await fetchMyData(user.id));
    } catch (error) {
      showError(error);
    }
  };

  // `?pay=1`: the planner's Book and Take Payment sent the desk here to settle at once.
  const [params] = useSearchParams();
  const [payOpen, setPayOpen] = useState(params.get('pay') === '1');
  const paid = async (answer: DeskPaymentResponse) => {
    setPayOpen(false);
    showAlert(answer.detail, 'success');
    // The balance, its breakdown and the transactions list all change.
    await client.invalidateQueries({ queryKey: ['users', user.id] });
  };
  const loginLink = useMutation({
    mutationFn: () => sendLoginLink(user.id),
    onSuccess: () => showAlert(loginLinkSentMessage(user.email), 'success'),
    onError: (error) => showError(error),
  });
  const remove = useMutation({
    mutationFn: () => deleteUser(user.id),
    onSuccess: () => {
      setDeleteOpen(false);
      showAlert(USER_DELETED, 'success');
      goBack();
    },
    onError: (error) => showError(error, { 400: USER_DELETE_FAILED, 403: USER_DELETE_FAILED }),
  });

  const hasCard = !!card.data;
  const subscribed = user.credits_subscription_exists;
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h4 card-title mb-3">Account</h2>
        <Indicators user={user} />
        <div className="d-grid gap-2">
          <ViewCustomer user={user} TransactionsModal={TransactionsModal} />
          <Button
            variant="outline-primary"
            disabled={!hasCard || subscribed}
            aria-describedby={!hasCard ? 'add-subscription-warning' : undefined}
            onClick={() =>
              void navigate(pathTo('addSubscription', {}, { userId: user.id, redirect: here }), {
                state: { from: here },
              })
            }
          >
            Add Subscription
          </Button>
          {card.isSuccess && !hasCard && (
            <p id="add-subscription-warning" className="small text-warning-emphasis mb-0">
              {NO_CARD_FOR_CLUB_MESSAGE}
            </p>
          )}
          <Button variant="outline-primary" onClick={() => setHistoryOpen(true)}>
            View History
          </Button>
          <Button variant="outline-success" disabled={owed <= 0} onClick={() => setPayOpen(true)}>
            Mark All Outstanding as Paid
          </Button>
          <Button
            variant="outline-primary"
            disabled={!user.email || privileged || loginLink.isPending}
            onClick={() => loginLink.mutate()}
          >
            {loginLink.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Send Login Link
          </Button>
          {mayExport && (
            <Button variant="outline-primary" onClick={() => void downloadData()}>
              Download Data
            </Button>
          )}
          <Button variant="danger" disabled={privileged} onClick={() => setDeleteOpen(true)}>
            Delete User and Cancel Subscription
          </Button>
          {privileged && (
            <p className="small text-body-secondary mb-0">
              Staff and superuser accounts cannot be deleted or sent a login link here.
            </p>
          )}
        </div>
        <HistoryModal userId={user.id} show={historyOpen} onHide={() => setHistoryOpen(false)} />
        <TakePaymentModal
          show={payOpen && owed > 0}
          userId={user.id}
          customer={displayName(user)}
          owedCents={owed}
          currency={currency}
          onHide={() => setPayOpen(false)}
          onPaid={(answer) => void paid(answer)}
        />
        <DeleteUserModal
          user={user}
          show={deleteOpen}
          busy={remove.isPending}
          onHide={() => setDeleteOpen(false)}
          onConfirm={() => remove.mutate()}
        />
      </Card.Body>
    </Card>
  );
}

/**
 * /admin/user/:userId (staff spec §2): a customer's open payment disputes (decision 0084), their
 * outstanding balance, indicators, the
 * actions (provider dashboard, add subscription, history, mark paid, login link, delete),
 * their details and their card.
 */
export function AdminUserScreen({ ProfileForm, TransactionsModal, CustomerTrail }: AdminUserParts) {
  const { userId: param } = useParams();
  const userId = Number(param);
  const valid = Number.isInteger(userId) && userId > 0;
  const user = useQuery({ ...userQuery(userId), enabled: valid });
  const balance = useQuery({ ...balanceQuery(userId), enabled: valid });
  const disputes = useQuery({ ...disputesQuery(userId), enabled: valid });
  const goBack = useGoBack();

  let body;
  if (!valid) body = <Alert variant="danger">There is no user with this id.</Alert>;
  else if (user.isPending) body = <SpinnerScreen label="Loading user…" />;
  else if (user.isError) body = <Alert variant="danger">{errorMessage(user.error)}</Alert>;
  else {
    body = (
      <>
        {disputes.data && <DisputeAlert disputes={disputes.data} />}
        {balance.data && <BalanceAlert balance={balance.data} userId={userId} />}
        {balance.isError && <Alert variant="danger">{errorMessage(balance.error)}</Alert>}
        <Row className="g-4">
          <Col lg={5}>
            <Actions
              user={user.data}
              owed={balance.data?.amount_cents ?? 0}
              currency={balance.data?.currency ?? DEFAULT_CURRENCY}
              TransactionsModal={TransactionsModal}
            />
            <PaymentMethodPanel userId={userId} mountDelayMs={CARD_WIDGET_DELAY_MS} />
          </Col>
          <Col lg={7}>
            <Card>
              <Card.Body>
                <ProfileForm
                  user={user.data}
                  title="User Details"
                  savedMessage={USER_CHANGED}
                  allowUsernameChange
                />
              </Card.Body>
            </Card>
          </Col>
        </Row>
        <CustomerTrail userId={userId} />
      </>
    );
  }

  const title = user.data ? displayName(user.data) : 'User';
  return (
    <>
      <div className="mb-3">
        <Button variant="outline-secondary" size="sm" onClick={goBack}>
          ‹ Back
        </Button>
      </div>
      <PageTitle className="h2 mb-1 text-break">{title}</PageTitle>
      <p className="text-body-secondary mb-4">
        {user.data ? (
          <>
            {[
              `${user.data.first_name} ${user.data.last_name}`.trim(),
              user.data.email || user.data.username,
            ]
              .filter((part) => part && part !== title)
              .join(' · ')}
            {user.data.is_superuser ? ' · Superuser' : user.data.is_staff ? ' · Staff' : ''}
          </>
        ) : (
          'Admin user page'
        )}
      </p>
      {body}
    </>
  );
}

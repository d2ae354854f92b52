import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { PageTitle } from '../../components/page-title';
import { cardQuery } from '../../components/payment-method/card-api';
import { PaymentMethodPanel } from '../../components/payment-method/payment-method-panel';
import { SpinnerScreen } from '../../components/spinner-screen';
import type { User } from '@paddock/contract/accounts';
import { displayName, useCurrentUser } from '../../lib/current-user';
import { pathTo } from '../../lib/routes';
import { UpcomingReservationsCard } from '../../features/reservations/components/upcoming-reservations-card';
import { futureReservationsQuery } from '../../features/reservations/api/list-future-reservations';
import { ClubPanel } from '../../features/club/components/club-panel';
import { RecentTransactionsCard } from '../../features/charges/components/recent-transactions';
import { balanceQuery } from '../../lib/api/get-balance';
import { OutstandingBalanceCard } from '../../features/charges/components/outstanding-balance-card';
import { WaitlistCard } from '../../features/refunds/components/waitlist-card';

// The profile form brings react-hook-form, zod and the country list: loaded once the panels
// above it are on screen, so none of it is evaluated before the dashboard's first paint
// (decision 0064).
const ProfileForm = lazy(() =>
  import('../../features/accounts/components/profile-form').then((m) => ({
    default: m.ProfileForm,
  })),
);

function QuickLinks() {
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h4 card-title mb-3">Racing</h2>
        <ul className="list-unstyled mb-0">
          <li>
            <Link to={pathTo('laps')}>My Laps</Link>
          </li>
          <li>
            <Link to={pathTo('leaderboards')}>Leaderboards</Link>
          </li>
        </ul>
      </Card.Body>
    </Card>
  );
}

/**
 * The panels. What a phone shows first (the upcoming reservations, then the payment and club
 * panels: decision 0098) renders at once; the rest follows in a deferred render, which React
 * splits into short tasks instead of one long one (total blocking time, decision 0064). Nothing
 * on screen moves when it comes: it comes below.
 */
function Panels({ user }: { user: User }) {
  const rest = useDeferredValue(true, false);
  return (
    <Row className="dashboard-panels">
      <Col lg={5} className="dashboard-column">
        <OutstandingBalanceCard userId={user.id} />
        <PaymentMethodPanel userId={user.id} />
        <ClubPanel />
        {rest && (
          <>
            <RecentTransactionsCard />
            <QuickLinks />
          </>
        )}
      </Col>
      <Col lg={7} className="dashboard-column">
        <div className="dashboard-first">
          <UpcomingReservationsCard />
        </div>
        {rest && (
          <>
            <WaitlistCard />
            <Card className="mb-4">
              <Card.Body>
                <Suspense fallback={<SpinnerScreen label="Loading profile…" />}>
                  <ProfileForm user={user} />
                </Suspense>
              </Card.Body>
            </Card>
          </>
        )}
      </Col>
    </Row>
  );
}

/**
 * /dashboard (spec customer §2). The dashboard composes panels from several features, so it
 * lives in app/: payment method, the club panel (features/club, with the cancel-subscription
 * modal), recent transactions (features/charges), racing links, upcoming reservations
 * (features/reservations), the waitlist entries (features/refunds) and the profile form (features/accounts).
 */
export default function DashboardScreen() {
  const user = useCurrentUser();
  // The payment panel heads the page on a phone and its height depends on the card (a form
  // without one): the panels appear with the first answer about it, so nothing below them
  // moves (CLS). An error counts as an answer (the panel shows it), and once shown the panels
  // stay, whatever the card query does next.
  // The upcoming reservations head it below lg (decision 0098): they wait for their answer too.
  const card = useQuery({ ...cardQuery(user.data?.id ?? 0), enabled: !!user.data });
  const upcoming = useQuery(futureReservationsQuery);
  // The outstanding balance heads the panels when something is owed: waited for likewise.
  const balance = useQuery({ ...balanceQuery(user.data?.id ?? 0), enabled: !!user.data });
  const [cardAnswered, setCardAnswered] = useState(false);
  if (!cardAnswered && !card.isPending && !upcoming.isPending && !balance.isPending)
    setCardAnswered(true);
  if (!user.data || !cardAnswered) {
    return (
      <>
        <PageTitle>Dashboard</PageTitle>
        <SpinnerScreen />
      </>
    );
  }
  return (
    <>
      <PageTitle>{`Welcome, ${displayName(user.data)}`}</PageTitle>
      <Panels user={user.data} />
    </>
  );
}

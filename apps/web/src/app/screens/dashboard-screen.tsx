import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { PageTitle } from '../../components/page-title';
import { cardQuery } from '../../components/payment-method/card-api';
import { PaymentMethodPanel } from '../../components/payment-method/payment-method-panel';
import { SpinnerScreen } from '../../components/spinner-screen';
import { displayName, useCurrentUser } from '../../lib/current-user';
import { pathTo } from '../../lib/routes';
import { ProfileForm } from '../../features/accounts/components/profile-form';
import { UpcomingReservationsCard } from '../../features/reservations/components/upcoming-reservations-card';
import { ClubPanel } from '../../features/club/components/club-panel';
import { RecentTransactionsCard } from '../../features/charges/components/recent-transactions';
import { WaitlistCard } from '../../features/refunds/components/waitlist-card';

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
  const card = useQuery({ ...cardQuery(user.data?.id ?? 0), enabled: !!user.data });
  const [cardAnswered, setCardAnswered] = useState(false);
  if (!cardAnswered && (card.isSuccess || card.isError)) setCardAnswered(true);
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
      <Row>
        <Col lg={5}>
          <PaymentMethodPanel userId={user.data.id} />
          <ClubPanel />
          <RecentTransactionsCard />
          <QuickLinks />
        </Col>
        <Col lg={7}>
          <UpcomingReservationsCard />
          <WaitlistCard />
          <Card className="mb-4">
            <Card.Body>
              <ProfileForm user={user.data} />
            </Card.Body>
          </Card>
        </Col>
      </Row>
    </>
  );
}

import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { DateTime } from 'luxon';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { REPORT_DAYS_MAX, type Report, type RevenueRow } from '@paddock/contract/reports';
import { PageTitle } from '../../../components/page-title';
import { formatMoney } from '@paddock/contract/money';
import { errorMessage } from '../../../lib/error-message';
import { useReport, useReportLocations } from '../api/get-report';
import { downloadCsv } from '../components/csv-export';
import { ScrollTable } from '../components/scroll-table';
import {
  hourLabel,
  percent,
  UtilisationHeatmap,
  WEEKDAYS,
} from '../components/utilisation-heatmap';

const RevenueChart = lazy(() => import('../components/revenue-chart'));

const money = (cents: number) => (cents / 100).toFixed(2);
const REVENUE_HEADER = ['Date', 'Bookings', 'Club', 'Vouchers', 'Fees', 'Total'];
const revenueCells = (r: RevenueRow) => [
  r.date,
  money(r.bookings_cents),
  money(r.club_cents),
  money(r.vouchers_cents),
  money(r.fees_cents),
  money(r.total_cents),
];

function Section({
  title,
  onCsv,
  children,
}: {
  title: string;
  onCsv?: () => void;
  children: ReactNode;
}) {
  return (
    <section className="mb-4" aria-label={title}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="h4 mb-0 me-auto">{title}</h2>
        {onCsv && (
          <Button variant="outline-secondary" size="sm" onClick={onCsv}>
            Download {title} CSV
          </Button>
        )}
      </div>
      {children}
    </section>
  );
}

function periodError(from: string, to: string): string | null {
  const a = DateTime.fromISO(from);
  const b = DateTime.fromISO(to);
  if (!a.isValid || !b.isValid) return 'Enter both dates.';
  const days = b.diff(a, 'days').days + 1;
  if (days < 1) return 'Enter a date on or after the start.';
  if (days > REPORT_DAYS_MAX) return `Choose a period of at most ${REPORT_DAYS_MAX} days.`;
  return null;
}

/** Staff with reports.view_report: how one location did over a chosen period. */
export default function ReportsScreen() {
  const locations = useReportLocations();
  const today = DateTime.now();
  const [location, setLocation] = useState<string>('');
  const [from, setFrom] = useState(today.startOf('month').toISODate()!);
  const [to, setTo] = useState(today.endOf('month').toISODate()!);
  const [byWeek, setByWeek] = useState(false);
  const ids = { location: useId(), from: useId(), to: useId() };
  const locationId = location || String(locations.data?.[0]?.id ?? '');
  const currency = locations.data?.find((l) => String(l.id) === locationId)?.currency;
  const invalid = periodError(from, to);
  const report = useReport(locationId && !invalid ? { location: locationId, from, to } : null);
  const data = report.data;
  const file = (name: string) => `${name}-${data?.location.name ?? ''}-${from}-${to}.csv`;

  return (
    <>
      <PageTitle>Reports</PageTitle>
      <Form onSubmit={(e) => e.preventDefault()} className="mb-3">
        <Row className="g-2 align-items-end">
          <Col xs={12} md={4}>
            <Form.Label htmlFor={ids.location}>Location</Form.Label>
            <Form.Select
              id={ids.location}
              value={locationId}
              onChange={(e) => setLocation(e.target.value)}
            >
              {(locations.data ?? []).map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </Form.Select>
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor={ids.from}>From</Form.Label>
            <Form.Control
              id={ids.from}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              isInvalid={!!invalid}
            />
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor={ids.to}>To</Form.Label>
            <Form.Control
              id={ids.to}
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              isInvalid={!!invalid}
              aria-describedby={invalid ? `${ids.to}-error` : undefined}
            />
          </Col>
        </Row>
        {invalid && (
          <div id={`${ids.to}-error`} className="text-danger small mt-1" role="alert">
            {invalid}
          </div>
        )}
      </Form>
      {report.isError && (
        <p className="text-danger" role="alert">
          {errorMessage(report.error)}
        </p>
      )}
      {report.isLoading && <Spinner animation="border" role="status" aria-label="Loading report" />}
      {data && (
        <ReportBody
          data={data}
          currency={currency ?? 'USD'}
          byWeek={byWeek}
          setByWeek={setByWeek}
          file={file}
        />
      )}
    </>
  );
}

function ReportBody({
  data,
  currency,
  byWeek,
  setByWeek,
  file,
}: {
  data: Report;
  currency: string;
  byWeek: boolean;
  setByWeek: (v: boolean) => void;
  file: (name: string) => string;
}) {
  const rows = byWeek ? data.revenue_by_week : data.revenue_by_day;
  const formatCents = (cents: number) => formatMoney(cents, currency);
  const t = data.revenue_total;
  return (
    <>
      <Section
        title="Revenue"
        onCsv={() =>
          downloadCsv(
            file(byWeek ? 'revenue-by-week' : 'revenue-by-day'),
            REVENUE_HEADER,
            rows.map(revenueCells),
          )
        }
      >
        <p className="mb-2">
          Total <strong>{formatCents(t.total_cents)}</strong>: bookings{' '}
          {formatCents(t.bookings_cents)}, club {formatCents(t.club_cents)}, vouchers{' '}
          {formatCents(t.vouchers_cents)}, fees {formatCents(t.fees_cents)}. Club and voucher sales
          are venue-wide.
        </p>
        <ButtonGroup aria-label="Revenue per" className="mb-2">
          <Button
            variant={byWeek ? 'outline-primary' : 'primary'}
            onClick={() => setByWeek(false)}
            aria-pressed={!byWeek}
          >
            By Day
          </Button>
          <Button
            variant={byWeek ? 'primary' : 'outline-primary'}
            onClick={() => setByWeek(true)}
            aria-pressed={byWeek}
          >
            By Week
          </Button>
        </ButtonGroup>
        <Suspense
          fallback={<Spinner animation="border" role="status" aria-label="Loading chart" />}
        >
          <RevenueChart rows={rows} currency={currency} />
        </Suspense>
        <ScrollTable label="Revenue table" maxHeight="24rem">
          <Table size="sm" striped className="mb-0">
            <thead>
              <tr>
                <th scope="col">{byWeek ? 'Week of' : 'Date'}</th>
                <th scope="col" className="text-end">
                  Bookings
                </th>
                <th scope="col" className="text-end">
                  Club
                </th>
                <th scope="col" className="text-end">
                  Vouchers
                </th>
                <th scope="col" className="text-end">
                  Fees
                </th>
                <th scope="col" className="text-end">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.date}>
                  <th scope="row">{r.date}</th>
                  <td className="text-end">{formatCents(r.bookings_cents)}</td>
                  <td className="text-end">{formatCents(r.club_cents)}</td>
                  <td className="text-end">{formatCents(r.vouchers_cents)}</td>
                  <td className="text-end">{formatCents(r.fees_cents)}</td>
                  <td className="text-end">{formatCents(r.total_cents)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ScrollTable>
      </Section>

      <Section
        title="Seat Utilisation"
        onCsv={() =>
          downloadCsv(
            file('utilisation'),
            ['Seat', 'Day', 'Hour', 'Booked half-hours', 'Half-hours', 'Booked %'],
            data.utilisation.seats.flatMap((s) =>
              s.booked.map((n, i) => [
                s.name,
                WEEKDAYS[Math.floor(i / 24)],
                hourLabel(i % 24),
                n,
                data.utilisation.capacity[i],
                percent(n, data.utilisation.capacity[i]),
              ]),
            ),
          )
        }
      >
        <UtilisationHeatmap utilisation={data.utilisation} />
      </Section>

      <Section
        title="Club Members"
        onCsv={() =>
          downloadCsv(
            file('club-members'),
            ['Joined', 'Cancelled', 'In good standing'],
            [[data.club.joined, data.club.cancelled, data.club.in_good_standing]],
          )
        }
      >
        <Table size="sm" className="w-auto">
          <tbody>
            <tr>
              <th scope="row">Joined</th>
              <td>{data.club.joined}</td>
            </tr>
            <tr>
              <th scope="row">Cancelled</th>
              <td>{data.club.cancelled}</td>
            </tr>
            <tr>
              <th scope="row">In good standing</th>
              <td>{data.club.in_good_standing}</td>
            </tr>
          </tbody>
        </Table>
      </Section>

      <Section
        title="No-Shows"
        onCsv={() =>
          downloadCsv(
            file('no-shows'),
            ['Slot', 'Seat', 'Customer', 'Email'],
            data.no_shows.results.map((r) => [r.slot, r.seat, r.name, r.email]),
          )
        }
      >
        <p>
          {data.no_shows.count} no-show{data.no_shows.count === 1 ? '' : 's'}
          {data.no_shows.count > data.no_shows.results.length &&
            ` (the latest ${data.no_shows.results.length} listed)`}
          .
        </p>
        {data.no_shows.results.length > 0 && (
          <ScrollTable label="No-shows table">
            <Table size="sm" striped className="mb-0">
              <thead>
                <tr>
                  <th scope="col">Slot</th>
                  <th scope="col">Seat</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Email</th>
                </tr>
              </thead>
              <tbody>
                {data.no_shows.results.map((r) => (
                  <tr key={r.reservation}>
                    <td>{r.slot.replace('T', ' ')}</td>
                    <td>{r.seat}</td>
                    <td>{r.name}</td>
                    <td>{r.email}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ScrollTable>
        )}
      </Section>

      <Section
        title="Top Customers"
        onCsv={() =>
          downloadCsv(
            file('top-customers'),
            ['Customer', 'Email', 'Half-hours booked', 'Spent'],
            data.top_customers.map((c) => [c.name, c.email, c.bookings, money(c.spent_cents)]),
          )
        }
      >
        {data.top_customers.length === 0 ? (
          <p>No paid bookings in this period.</p>
        ) : (
          <ScrollTable label="Top customers table">
            <Table size="sm" striped className="mb-0">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Email</th>
                  <th scope="col" className="text-end">
                    Half-hours
                  </th>
                  <th scope="col" className="text-end">
                    Spent
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.top_customers.map((c) => (
                  <tr key={c.user}>
                    <td>{c.name}</td>
                    <td>{c.email}</td>
                    <td className="text-end">{c.bookings}</td>
                    <td className="text-end">{formatCents(c.spent_cents)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ScrollTable>
        )}
      </Section>
    </>
  );
}

import { lazy, Suspense, useId } from 'react';
import { useSearchParams } from 'react-router';
import { DateTime } from 'luxon';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { REPORT_DAYS_MAX, type Report } from '@paddock/contract/reports';
import { PageTitle } from '../../../components/page-title';
import { formatMoney } from '@paddock/contract/money-format';
import { errorMessage } from '../../../lib/error-message';
import { useReport, useReportLocations } from '../api/get-report';
import { downloadCsv } from '../components/csv-export';
import { ReportSection, ReportTable } from '../components/report-table';
import {
  clubColumns,
  customerColumns,
  noShowColumns,
  revenueColumns,
} from '../components/report-columns';
import {
  hourLabel,
  percent,
  UtilisationHeatmap,
  WEEKDAYS,
} from '../components/utilisation-heatmap';
import { TakingsByMethodTable } from '../components/takings-by-method';
import { periodShortcuts } from '../components/period-shortcuts';
import { useVenueConfig } from '../../../lib/venue-config';

const RevenueChart = lazy(() => import('../components/revenue-chart'));

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
  // The location, the period and the grouping are in the URL: a report can be bookmarked, sent
  // to the owner, and survives a reload.
  const [params, setParams] = useSearchParams();
  const change = (values: Record<string, string>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(values)) next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const chosen = locations.data?.find((l) => String(l.id) === params.get('location'));
  const place = chosen ?? locations.data?.[0];
  const shortcuts = periodShortcuts(place?.timezone);
  const thisMonth = shortcuts.find((s) => s.label === 'This Month')!.period;
  const location = params.get('location') ?? '';
  const from = params.get('from') ?? thisMonth.from;
  const to = params.get('to') ?? thisMonth.to;
  const byWeek = params.get('per') === 'week';
  const setByWeek = (week: boolean) => change({ per: week ? 'week' : 'day' });
  const ids = { location: useId(), from: useId(), to: useId() };
  const locationId = String(place?.id ?? location);
  const currency = place?.currency;
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
              onChange={(e) => change({ location: e.target.value })}
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
              onChange={(e) => change({ from: e.target.value })}
              isInvalid={!!invalid}
            />
          </Col>
          <Col xs={6} md={3}>
            <Form.Label htmlFor={ids.to}>To</Form.Label>
            <Form.Control
              id={ids.to}
              type="date"
              value={to}
              onChange={(e) => change({ to: e.target.value })}
              isInvalid={!!invalid}
              aria-describedby={invalid ? `${ids.to}-error` : undefined}
            />
          </Col>
        </Row>
        <div role="group" aria-label="Period" className="d-flex flex-wrap gap-2 mt-2">
          {shortcuts.map(({ label, period }) => {
            const current = period.from === from && period.to === to;
            return (
              <Button
                key={label}
                size="sm"
                variant={current ? 'primary' : 'outline-primary'}
                aria-pressed={current}
                onClick={() => change(period)}
              >
                {label}
              </Button>
            );
          })}
        </div>
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
  const { payment_provider } = useVenueConfig();
  const t = data.revenue_total;
  return (
    <>
      <ReportTable
        caption="Revenue"
        csvName={file(byWeek ? 'revenue-by-week' : 'revenue-by-day')}
        columns={revenueColumns(byWeek, formatCents, payment_provider === 'stripe')}
        rows={rows}
        rowKey={(r) => r.date}
        maxHeight="24rem"
      >
        <p className="mb-2">
          Total <strong>{formatCents(t.total_cents)}</strong>: bookings{' '}
          {formatCents(t.bookings_cents)}, club {formatCents(t.club_cents)}, vouchers{' '}
          {formatCents(t.vouchers_cents)}, fees {formatCents(t.fees_cents)}
          {t.refunds_cents !== 0 && <>, refunds at Stripe {formatCents(t.refunds_cents)}</>}. Club
          and voucher sales, and refunds made at Stripe, are venue-wide.
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
      </ReportTable>
      <TakingsByMethodTable takings={data.takings_by_method} formatCents={formatCents} />

      <ReportSection
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
      </ReportSection>

      <ReportTable
        caption="Club Members"
        csvName={file('club-members')}
        columns={clubColumns}
        rows={[data.club]}
        rowKey={() => 'club'}
        record
      />

      <ReportTable
        caption="No-Shows"
        csvName={file('no-shows')}
        columns={noShowColumns}
        rows={data.no_shows.results}
        rowKey={(r) => r.reservation}
      >
        <p>
          {data.no_shows.count} no-show{data.no_shows.count === 1 ? '' : 's'}
          {data.no_shows.count > data.no_shows.results.length &&
            ` (the latest ${data.no_shows.results.length} listed)`}
          .
        </p>
      </ReportTable>

      <ReportTable
        caption="Top Customers"
        csvName={file('top-customers')}
        columns={customerColumns(formatCents)}
        rows={data.top_customers}
        rowKey={(c) => c.user}
        empty={<p>No paid bookings in this period.</p>}
      />
    </>
  );
}

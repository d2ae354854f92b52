import type { Report, RevenueRow } from '@paddock/contract/reports';
import type { ReportColumn } from './report-table';

// The report's tables: what each column shows and what its CSV holds (amounts in the CSV are
// plain decimals, on the screen in the location's currency).
const money = (cents: number) => (cents / 100).toFixed(2);
type Customer = Report['top_customers'][number];
type NoShow = Report['no_shows']['results'][number];
type Club = Report['club'];

/** `stripe`: the venue takes cards through Stripe, whose dashboard refunds get a column (0084). */
export const revenueColumns = (byWeek: boolean, show: (cents: number) => string, stripe = true) => {
  const amount = (header: string, key: keyof RevenueRow): ReportColumn<RevenueRow> => ({
    header,
    value: (r) => money(r[key] as number),
    cell: (r) => show(r[key] as number),
    numeric: true,
  });
  const columns: ReportColumn<RevenueRow>[] = [
    {
      header: byWeek ? 'Week of' : 'Date',
      csvHeader: 'Date',
      value: (r) => r.date,
      rowHeader: true,
    },
    amount('Bookings', 'bookings_cents'),
    amount('Club', 'club_cents'),
    amount('Vouchers', 'vouchers_cents'),
    amount('Fees', 'fees_cents'),
    // No Stripe, no refunds made at Stripe: no column of zeros (issue 41).
    ...(stripe ? [amount('Refunds at Stripe', 'refunds_cents')] : []),
    amount('Total', 'total_cents'),
  ];
  return columns;
};

export const clubColumns: ReportColumn<Club>[] = [
  { header: 'Joined', value: (c) => c.joined },
  { header: 'Cancelled', value: (c) => c.cancelled },
  { header: 'In good standing', value: (c) => c.in_good_standing },
];

export const noShowColumns: ReportColumn<NoShow>[] = [
  { header: 'Slot', value: (r) => r.slot, cell: (r) => r.slot.replace('T', ' ') },
  { header: 'Seat', value: (r) => r.seat },
  { header: 'Customer', value: (r) => r.name },
  { header: 'Email', value: (r) => r.email },
];

export const customerColumns = (show: (cents: number) => string): ReportColumn<Customer>[] => [
  { header: 'Customer', value: (c) => c.name },
  { header: 'Email', value: (c) => c.email },
  { header: 'Half-hours', csvHeader: 'Half-hours booked', value: (c) => c.bookings, numeric: true },
  {
    header: 'Spent',
    value: (c) => money(c.spent_cents),
    cell: (c) => show(c.spent_cents),
    numeric: true,
  },
];

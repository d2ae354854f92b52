import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { RevenueRow } from '@paddock/contract/reports';
import { formatMoney } from '@paddock/contract/money-format';

export const REVENUE_PARTS = [
  { key: 'bookings_cents', name: 'Bookings', color: '#0d6efd' },
  { key: 'club_cents', name: 'Club', color: '#198754' },
  { key: 'vouchers_cents', name: 'Vouchers', color: '#fd7e14' },
  { key: 'fees_cents', name: 'Fees', color: '#6f42c1' },
] as const;

/** Revenue per day or week, stacked by source. Loaded on its own (React.lazy): recharts is big. */
export default function RevenueChart({ rows, currency }: { rows: RevenueRow[]; currency: string }) {
  return (
    <div role="img" aria-label="Revenue chart (the table below has the same figures)">
      <ResponsiveContainer width="100%" height={280}>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="date" tick={{ fontSize: 11 }} />
          <YAxis
            tickFormatter={(v: number) => formatMoney(v, currency)}
            tick={{ fontSize: 11 }}
            width={72}
          />
          {/* Body-coloured text: the parts' own colours (orange, purple) fail contrast on white. */}
          <Tooltip
            formatter={(v) => formatMoney(Number(v), currency)}
            contentStyle={{ color: '#212529', borderColor: '#6c757d' }}
            itemStyle={{ color: '#212529' }}
            labelStyle={{ color: '#212529', fontWeight: 600 }}
          />
          <Legend />
          {REVENUE_PARTS.map((part) => (
            <Bar
              key={part.key}
              dataKey={part.key}
              name={part.name}
              stackId="revenue"
              fill={part.color}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

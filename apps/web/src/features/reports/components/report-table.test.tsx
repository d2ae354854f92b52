import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { csvTable, ReportTable, type ReportColumn } from './report-table';

type Row = { id: number; name: string; cents: number };
const columns: ReportColumn<Row>[] = [
  { header: 'Name', value: (r) => r.name, rowHeader: true },
  {
    header: 'Spent',
    csvHeader: 'Spent (USD)',
    value: (r) => (r.cents / 100).toFixed(2),
    cell: (r) => `$${(r.cents / 100).toFixed(2)}`,
    numeric: true,
  },
];
const rows: Row[] = [
  { id: 1, name: 'Alice', cents: 8300 },
  { id: 2, name: 'Bob', cents: 4000 },
];

describe('ReportTable', () => {
  it('shows each column’s cell under a titled section with its CSV button', () => {
    render(
      <ReportTable
        caption="Top Customers"
        csvName="x.csv"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
      >
        <p>Intro</p>
      </ReportTable>,
    );
    const section = screen.getByRole('region', { name: 'Top Customers' });
    expect(within(section).getByRole('heading', { level: 2 })).toHaveTextContent('Top Customers');
    expect(
      within(section).getByRole('button', { name: 'Download Top Customers CSV' }),
    ).toBeVisible();
    expect(within(section).getByText('Intro')).toBeVisible();
    const table = within(section).getByRole('region', { name: 'Top Customers table' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Spent']);
    const alice = within(table).getByRole('row', { name: /Alice/ });
    expect(within(alice).getByRole('rowheader')).toHaveTextContent('Alice');
    expect(within(alice).getByRole('cell')).toHaveTextContent('$83.00');
    expect(within(alice).getByRole('cell')).toHaveClass('text-end');
  });

  it('shows one record as header–value rows, and what is empty instead of a table', () => {
    const { rerender } = render(
      <ReportTable
        caption="Club"
        csvName="c.csv"
        columns={columns}
        rows={[rows[1]]}
        rowKey={(r) => r.id}
        record
      />,
    );
    expect(screen.getByRole('row', { name: 'Spent $40.00' })).toBeVisible();
    expect(screen.queryByRole('columnheader')).toBeNull();
    rerender(
      <ReportTable
        caption="Club"
        csvName="c.csv"
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        empty={<p>None</p>}
      />,
    );
    expect(screen.getByText('None')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('exports the columns’ CSV values under their CSV headers', () => {
    expect(csvTable(columns, rows)).toEqual([
      ['Name', 'Spent (USD)'],
      [
        ['Alice', '83.00'],
        ['Bob', '40.00'],
      ],
    ]);
  });
});

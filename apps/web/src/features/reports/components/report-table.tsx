import type { Key, ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { downloadCsv } from './csv-export';
import { ScrollTable } from './scroll-table';

/** One column: its CSV value, and what the screen shows (the CSV value unless told). */
export type ReportColumn<R> = {
  header: string;
  /** The CSV's header when it differs from the screen's. */
  csvHeader?: string;
  value: (row: R) => string | number;
  cell?: (row: R) => ReactNode;
  numeric?: boolean;
  /** The cell names its row (`<th scope="row">`). */
  rowHeader?: boolean;
};

/** The CSV's header and rows: every column's CSV value. */
export function csvTable<R>(columns: ReportColumn<R>[], rows: R[]) {
  return [
    columns.map((c) => c.csvHeader ?? c.header),
    rows.map((r) => columns.map((c) => c.value(r))),
  ] as const;
}

/** A titled part of the report with its "Download … CSV" button. */
export function ReportSection({
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

type Props<R> = {
  /** The section's heading, the download button's name and the table's scroller label. */
  caption: string;
  /** The CSV file's name. */
  csvName: string;
  columns: ReportColumn<R>[];
  rows: R[];
  rowKey: (row: R) => Key;
  /** What comes between the heading and the table (totals, a chart…). */
  children?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  maxHeight?: string;
  /** One record shown as a column of header–value pairs (its CSV stays one row). */
  record?: boolean;
};

/**
 * One table of the report and its CSV export: the same columns make both, so what is
 * downloaded is what is shown.
 */
export function ReportTable<R>({
  caption,
  csvName,
  columns,
  rows,
  rowKey,
  children,
  empty,
  maxHeight,
  record,
}: Props<R>) {
  const show = (c: ReportColumn<R>, r: R) => (c.cell ?? c.value)(r);
  const align = (c: ReportColumn<R>) => (c.numeric ? 'text-end' : undefined);
  const onCsv = () => downloadCsv(csvName, ...csvTable(columns, rows));

  let table: ReactNode;
  if (rows.length === 0) table = empty;
  else if (record)
    table = (
      <Table size="sm" className="w-auto">
        <tbody>
          {columns.map((c) => (
            <tr key={c.header}>
              <th scope="row">{c.header}</th>
              <td>{show(c, rows[0])}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    );
  else
    table = (
      <ScrollTable label={`${caption} table`} maxHeight={maxHeight}>
        <Table size="sm" striped className="mb-0">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={align(c)}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={rowKey(r)}>
                {columns.map((c) =>
                  c.rowHeader ? (
                    // A row's name (a date, a customer) stays on one line; the table scrolls.
                    <th key={c.header} scope="row" className={`text-nowrap ${align(c) ?? ''}`}>
                      {show(c, r)}
                    </th>
                  ) : (
                    <td key={c.header} className={align(c)}>
                      {show(c, r)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      </ScrollTable>
    );

  return (
    <ReportSection title={caption} onCsv={onCsv}>
      {children}
      {table}
    </ReportSection>
  );
}

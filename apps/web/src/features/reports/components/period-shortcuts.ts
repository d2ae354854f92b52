import { DateTime } from 'luxon';

export type Period = { from: string; to: string };

/**
 * The periods staff ask for most, in the location's own time zone (its "today" is the venue's,
 * not the browser's). Weeks start on Monday, as the heatmap's do.
 */
export function periodShortcuts(zone: string | undefined, now: DateTime = DateTime.now()) {
  const today = now.setZone(zone ?? 'local');
  const day = (d: DateTime): Period => ({ from: d.toISODate()!, to: d.toISODate()! });
  const span = (a: DateTime, b: DateTime): Period => ({ from: a.toISODate()!, to: b.toISODate()! });
  const lastMonth = today.minus({ months: 1 });
  return [
    { label: 'Today', period: day(today) },
    { label: 'Yesterday', period: day(today.minus({ days: 1 })) },
    { label: 'This Week', period: span(today.startOf('week'), today.endOf('week')) },
    { label: 'This Month', period: span(today.startOf('month'), today.endOf('month')) },
    { label: 'Last Month', period: span(lastMonth.startOf('month'), lastMonth.endOf('month')) },
  ];
}

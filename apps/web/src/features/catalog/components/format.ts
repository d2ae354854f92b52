/** Localized whole numbers (spec: Customer Laps). */
export const formatCount = (n: number) => n.toLocaleString();

/** Driving time: "12 h 05 min", "45 min", "0 min". */
export function formatDrivingTime(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h.toLocaleString()} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

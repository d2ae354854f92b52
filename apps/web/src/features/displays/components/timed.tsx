import type { TimingMark } from '@paddock/contract/live-timing';
import { markOf } from './timing-words';

/** A time in its colour (purple: the session's best, green: the driver's), said in words too. */
export function Timed({ text, mark }: { text: string; mark: TimingMark }) {
  if (!text) return null;
  const { className, words } = markOf(mark);
  return (
    <span className={className}>
      {text}
      {words && <span className="visually-hidden"> ({words})</span>}
    </span>
  );
}

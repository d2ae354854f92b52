// How the tower's numbers read (decision 0122): one place for the wall and the phone page.
import { formatLapTime } from '@paddock/contract/laps';
import type { TimingGap, TimingMark, TimingRow, TimingTower } from '@paddock/contract/live-timing';

/** `+1.500`, `+1 lap`, `+2 laps`; nothing for the reference car. */
export function gapText(gap: TimingGap): string {
  if (!gap) return '';
  if (gap.laps > 0) return `+${gap.laps} ${gap.laps === 1 ? 'lap' : 'laps'}`;
  if (gap.ms === null) return '';
  const s = gap.ms / 1000;
  return s >= 60 ? `+${formatLapTime(gap.ms)}` : `+${s.toFixed(3)}`;
}

export const lapText = (ms: number | null) => (ms === null ? '' : formatLapTime(ms));

export const sectorText = (ms: number) => (ms / 1000).toFixed(3);

/** The colour class of a time, and the words a screen reader hears for it. */
export function markOf(mark: TimingMark): { className: string; words: string } {
  if (mark === 'session_best') return { className: 'paddock-timing-purple', words: 'session best' };
  if (mark === 'personal_best')
    return { className: 'paddock-timing-green', words: 'personal best' };
  return { className: '', words: '' };
}

export const STATUS_WORDS: Record<TimingRow['status'], string> = {
  track: '',
  pit: 'In pit',
  finished: 'Finished',
};

export const SESSION_WORDS: Record<TimingTower['session']['type'], string> = {
  PRACTICE: 'Practice',
  QUALIFYING: 'Qualifying',
  RACE: 'Race',
};

/** `12:34` left, `3 laps to go`, `Final lap`; after the flag, nothing. */
export function clockText(tower: TimingTower, now: number): string {
  const { session } = tower;
  if (session.flag === 'chequered') return '';
  if (session.laps_remaining !== null)
    return session.laps_remaining <= 1 ? 'Final lap' : `${session.laps_remaining} laps to go`;
  if (session.time_remaining_ms === null) return '';
  // The clock runs on from when the tower was written.
  const left = Math.max(0, session.time_remaining_ms - Math.max(0, now - Date.parse(tower.at)));
  const total = Math.ceil(left / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s} left` : `${m}:${s} left`;
}

export const flagText = (tower: TimingTower) =>
  tower.final
    ? 'Final result'
    : tower.session.flag === 'chequered'
      ? 'Chequered flag'
      : 'Green flag';

export const NO_SESSION_YET =
  'No session of this event has run yet: the timing shows here when it starts.';

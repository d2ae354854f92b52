import { useEffect, useState } from 'react';

/** A slow loop of small offsets (px): no pixel shows the same thing all day. */
export const DRIFT_PATH = [
  { x: 0, y: 0 },
  { x: 3, y: 2 },
  { x: -2, y: 4 },
  { x: -4, y: -1 },
  { x: 2, y: -3 },
  { x: 4, y: 3 },
  { x: -3, y: -4 },
  { x: 1, y: 1 },
];
/** The content moves to the next offset every few minutes (gliding, see .paddock-tv-drift). */
export const DRIFT_EVERY_MS = 4 * 60_000;

/** The current burn-in offset of a wall screen's content. */
export function useBurnInDrift() {
  const [step, setStep] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setStep((s) => (s + 1) % DRIFT_PATH.length), DRIFT_EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  return DRIFT_PATH[step];
}

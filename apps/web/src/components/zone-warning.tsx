import { PlainAlert } from './plain-alert';
import { browserZoneDiffers } from '../lib/slot-format';

/**
 * Staff spec §9: the warning shown when the browser's time zone differs from the venue's. Times
 * stay on each venue's clock; this says so once above them.
 */
export function ZoneWarning({ places }: { places: { name: string; zone: string }[] }) {
  const differing = places.filter((p) => browserZoneDiffers(p.zone));
  const unique = [...new Map(differing.map((p) => [`${p.name}|${p.zone}`, p])).values()];
  if (unique.length === 0) return null;
  return (
    <PlainAlert variant="warning" className="py-2">
      {unique.length === 1
        ? `Times are in ${unique[0].name}’s time zone (${unique[0].zone}), not this device’s.`
        : `Times are in each venue’s time zone (${unique.map((p) => `${p.name}: ${p.zone}`).join('; ')}), not this device’s.`}
    </PlainAlert>
  );
}

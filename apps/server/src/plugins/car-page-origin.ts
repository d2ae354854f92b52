import type { Db } from '../db/client';
import type { ChangeFeed } from './changes';
import { getSettings } from './settings';

/**
 * The origin of the venue's external car page (the `car_details_url` setting), which the app's
 * "View Car" modal frames: the one host besides Stripe's the pages' CSP lets them frame. Kept
 * in memory and read again when any instance announces a settings change.
 */
export class CarPageOrigin {
  origins: readonly string[] = [];
  /** Read with it (the same settings, the same moments): the websites that may frame the widget. */
  widgetOrigins: readonly string[] = [];

  constructor(
    private readonly db: Db,
    changes: ChangeFeed,
  ) {
    changes.subscribe((change) => {
      if (change.topic === 'settings') void this.load();
    });
    // The feed came back after a loss: a settings change may have gone unheard.
    changes.subscribeCache((key) => {
      if (key === null) void this.load();
    });
  }

  /**
   * Reads the setting again. A database that does not answer (at start, or away for a while)
   * leaves the origin as it was: the car page is not framed until the next read succeeds, which
   * the feed's return or the next settings change brings.
   */
  async load(): Promise<void> {
    try {
      const settings = await getSettings(this.db);
      this.origins = originsOf(settings.car_details_url);
      this.widgetOrigins = settings.public_availability ? settings.widget_origins : [];
    } catch {
      /* kept as it was; see above */
    }
  }
}

/** `https://cars.example.com/{id}` → its origin; '' or a path on this site → none needed. */
export function originsOf(url: string): string[] {
  if (!/^https?:\/\//i.test(url)) return [];
  try {
    // The template's {id} and {key} sit in the path, never in the host.
    return [new URL(url.replace(/[{}]/g, '')).origin];
  } catch {
    return [];
  }
}

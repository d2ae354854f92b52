import type { Db } from '../db/client';

export type SeedResult = { logins: { role: string; username: string; password: string }[] };

// Placeholder until the seed lands (see issue 2).
export async function seedDemoVenue(_db: Db): Promise<SeedResult | null> {
  return null;
}

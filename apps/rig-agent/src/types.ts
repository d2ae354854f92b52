import type { z } from 'zod';
import type { lapIngest, RigWhoami, Track, Car } from '@paddock/contract/laps';
import type { RaceEvent, RigReport, Skin } from '@paddock/contract/races';

/** A lap as the agent sends it to POST /api/laps (defaults filled in by the server). */
export type LapIngest = z.input<typeof lapIngest>;
export type { RaceEvent, RigReport, RigWhoami, Skin, Track, Car };

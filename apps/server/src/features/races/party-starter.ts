import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parties, partyMembers, raceEvents } from '../../db/schema/races';
import { publishChange } from '../../plugins/changes';
import { recordAudit } from '../audit/audit.service';
import { leaveParty, lockSeats } from './parties';

// A party set up for later takes its seats at `starts_at` (decision 0101). Which event a seat
// runs is decided by the query (`currentEventSql`) at every read, so a rig asking at 19:00:01 is
// told the party's event whether or not a timer ran. The timer does what a query cannot: moves
// the seats out of an earlier party they are still in, and tells the rigs and the launcher's
// sockets (the change feed reaches every instance). Every instance runs one; the one that claims
// a party first (`switched_at`, under `FOR UPDATE SKIP LOCKED`) switches it, the others find
// nothing: a party is switched once.

/** Every instance looks this often anyway (a party another instance made, or after a crash). */
const POLL_MS = 30_000;
/** Parties switched per transaction. */
const BATCH = 20;

/** Switches the parties whose start has come; answers their ids (none when another took them). */
export async function startDueParties(db: Db): Promise<number[]> {
  return db.transaction(async (tx) => {
    const due = await tx.execute<{ id: number }>(sql`
      select id from parties where switched_at is null and starts_at <= now()
      order by starts_at, id limit ${BATCH} for update skip locked`);
    const ids = due.rows.map((r) => Number(r.id));
    for (const id of ids) {
      const [party] = await tx
        .update(parties)
        .set({ switchedAt: sql`now()` })
        .where(eq(parties.id, id))
        .returning();
      const seats = await tx
        .select({ calendarId: partyMembers.calendarId })
        .from(partyMembers)
        .where(eq(partyMembers.partyId, id));
      const seatIds = seats.map((s) => s.calendarId).sort((a, b) => a - b);
      // The seats leave the parties they were in before this one began (started earlier).
      const earlierMembers = () =>
        tx
          .select({ member: partyMembers })
          .from(partyMembers)
          .innerJoin(parties, eq(parties.id, partyMembers.partyId))
          .where(
            and(
              seatIds.length ? inArray(partyMembers.calendarId, seatIds) : sql`false`,
              sql`${parties.id} <> ${id}`,
              sql`(${parties.startsAt} is null or ${parties.startsAt} <= now())`,
              sql`coalesce(${parties.startsAt}, ${parties.createdAt}) < ${party.startsAt!.toISOString()}::timestamptz`,
            ),
          );
      // Parties before seats, as the party routes lock them (a party, then its seats): an add to
      // the morning party at this very moment waits for the switch, or the switch for it.
      const before = [...new Set((await earlierMembers()).map((r) => r.member.partyId))];
      if (before.length)
        await tx.execute(
          sql`select id from parties where id in (${sql.join(
            before.sort((a, b) => a - b).map((p) => sql`${p}`),
            sql`, `,
          )}) order by id for update`,
        );
      if (seatIds.length) await lockSeats(tx, seatIds);
      const earlier = await earlierMembers();
      for (const { member } of earlier) {
        // A host leaving ends its party, and with it the other seats' memberships: look again.
        const [still] = await tx.select().from(partyMembers).where(eq(partyMembers.id, member.id));
        if (still) await leaveParty(tx, null, still);
      }
      await recordAudit(tx, null, {
        action: 'races.start_party',
        targetType: 'party',
        targetId: id,
        after: { party: party.name, starts_at: party.startsAt!.toISOString(), members: seatIds },
      });
      await publishChange(tx, 'parties', party.locationId);
      await publishChange(tx, 'events', party.hostEventId);
      // Each seat's own event now says `moved_to`: its rig follows.
      const own = seatIds.length
        ? await tx
            .select({ id: raceEvents.id })
            .from(raceEvents)
            .where(inArray(raceEvents.calendarId, seatIds))
        : [];
      for (const e of own) await publishChange(tx, 'events', e.id);
    }
    return ids;
  });
}

export type StarterDeps = { db: Db; logError: (error: unknown, message: string) => void };

/** One instance's timer: armed at the next `starts_at` (re-read from the table), at most POLL_MS. */
export class PartyStarter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly deps: StarterDeps) {}

  start(): void {
    this.wake();
  }

  /** A party was set up or moved: switch what is due and re-arm for the next. */
  wake(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.again = true;
    this.running ??= this.run().finally(() => {
      this.running = null;
      if (this.again) this.wake();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    let next: number = POLL_MS;
    try {
      // A wake during a pass (a party set up meanwhile) is one more pass, so the arm sees it.
      while (this.again && !this.closed) {
        this.again = false;
        while (!this.closed && (await startDueParties(this.deps.db)).length > 0);
      }
      const result = await this.deps.db.execute<{ ms: number | null }>(sql`
        select extract(epoch from (min(starts_at) - now())) * 1000 as ms
        from parties where switched_at is null and starts_at is not null`);
      const ms = result.rows[0]?.ms;
      if (ms !== null && ms !== undefined) next = Math.min(POLL_MS, Math.max(0, Number(ms)) + 5);
    } catch (error) {
      this.deps.logError(error, 'party start failed');
    }
    if (this.closed) return;
    this.timer = setTimeout(() => this.wake(), next);
    this.timer.unref();
  }
}

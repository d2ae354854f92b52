// What buildApp (app.ts) adds to every Fastify instance. Not in deps.ts: naming these parts there
// would make deps.ts import the launcher hub, the AC link and the backups, which import `Deps`
// back (decision 0086). Imported for its types by app.ts and by test/test-app.ts, so that code
// built against either (the rig agent's tests too) sees the decorations.
import type { LauncherHub } from './features/races/launcher-socket';
import type { AcServerLink } from './features/ac-server/ac-server.service';
import type { LiveTimingHub } from './features/live-timing/timing-hub';
import type { ReceiptSender } from './features/checkout/receipts-owed';
import type { BackupRunner } from './features/backups/backups.service';
import type { Draining } from './lib/draining';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's launcher sockets (tests and the bench count them). */
    launcherHub: LauncherHub;
    /** This instance's AC dedicated servers (docs/decisions/0031). */
    acServers: AcServerLink;
    /** The live timing towers this instance computes (decision 0122). */
    liveTiming: LiveTimingHub;
    /** This instance's sender of the booking confirmations owed (docs/decisions/0059). */
    receipts: ReceiptSender;
    /** Takes this instance's backups into DATA_DIR/backups, one at a time (0074). */
    backups: BackupRunner;
    /** Set when SIGTERM starts the graceful shutdown (lib/graceful-shutdown.ts, decision 0080). */
    draining: Draining;
  }
}

import { Counter, Gauge, Registry } from 'prom-client';

/**
 * What the venue's business did, counted where it happens (docs/decisions/0074). Process-wide:
 * each counter is a few additions per event whether or not `/metrics` is on, so features count
 * without knowing how metrics are served.
 */
export const businessRegistry = new Registry();
const registers = [businessRegistry];

export const bookingsCounter = new Counter({
  name: 'paddock_bookings_total',
  help: 'Bookings made, by the path that made them (reservation, planner, checkout)',
  labelNames: ['via'] as const,
  registers,
});
export const checkoutsCounter = new Counter({
  name: 'paddock_checkouts_total',
  help: 'Checkouts processed, by outcome (paid, failed, declined, refused)',
  labelNames: ['outcome'] as const,
  registers,
});
export const refundsCounter = new Counter({
  name: 'paddock_refunds_total',
  help: 'Refunds recorded (cancellations and no-shows that gave something back)',
  registers,
});
export const lapsCounter = new Counter({
  name: 'paddock_laps_ingested_total',
  help: 'Laps stored, by source (rig, import)',
  labelNames: ['source'] as const,
  registers,
});
export const mailsCounter = new Counter({
  name: 'paddock_mails_total',
  help: 'Mails handed to the transport (or the outbox), by outcome (sent, failed)',
  labelNames: ['outcome'] as const,
  registers,
});
export const eventStreamsGauge = new Gauge({
  name: 'paddock_event_streams',
  help: 'Server-sent event streams open on this process',
  registers,
});

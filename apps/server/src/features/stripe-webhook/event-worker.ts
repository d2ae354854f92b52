import type Stripe from 'stripe';
import { claimNext, LEASE_MS, markFailed, markHandled } from './stripe-events';
import { handleStripeEvent } from './handle-event';
import type { EventContext } from './event-context';

/**
 * Handles the stored Stripe events after the webhook has answered (decision 0084): woken by each
 * webhook request and at start, it works through every event still to handle, one at a time per
 * instance. A handler that throws leaves the event for a later pass (`LEASE_MS`).
 */
export class StripeEventWorker {
  private running: Promise<void> | null = null;
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly ctx: EventContext) {}

  /** Starts a pass, or asks the running one for another round; resolves when it is done. */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => (this.running = null));
    return this.running;
  }

  async close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.running;
  }

  private async drain() {
    try {
      do {
        this.again = false;
        for (
          let event = await claimNext(this.ctx.db);
          event;
          event = await claimNext(this.ctx.db)
        ) {
          try {
            await handleStripeEvent(this.ctx, event.payload as Stripe.Event);
            await markHandled(this.ctx.db, event.id);
          } catch (error) {
            this.ctx.logError(error, `Stripe event ${event.id} (${event.type}) not handled yet`);
            await markFailed(this.ctx.db, event.id, error);
            this.retryLater();
          }
        }
      } while (this.again && !this.closed);
    } catch (error) {
      this.ctx.logError(error, 'Stripe events could not be read');
      this.retryLater();
    }
  }

  private retryLater() {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.wake();
    }, LEASE_MS + 1000);
    this.retry.unref();
  }
}

/**
 * Whether this instance is shutting down (SIGTERM, decision 0080). Readiness turns 503 so a load
 * balancer stops sending; event streams and launcher sockets are ended with a reconnect hint so
 * their clients move to another instance at once instead of after a timeout.
 */
export class Draining {
  private isDraining = false;
  private readonly listeners = new Set<() => void>();

  get started() {
    return this.isDraining;
  }

  /** `fn` runs once when draining starts (at once when it already has). Returns an unsubscribe. */
  onStart(fn: () => void): () => void {
    if (this.isDraining) {
      fn();
      return () => {};
    }
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start() {
    if (this.isDraining) return;
    this.isDraining = true;
    for (const fn of [...this.listeners]) fn();
    this.listeners.clear();
  }
}

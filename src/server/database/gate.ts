/**
 * The switch gate of a restore (decision 0039): while the restored database replaces the running
 * one, no request is served. The gate counts requests in flight (Fastify onRequest/onResponse),
 * answers 503 `DatabaseSwitching` (Retry-After) while closed, and {@link SwitchGate.close} waits
 * for the requests in flight to end (at most `drainMs`) before the databases are renamed.
 */
export class SwitchGate {
  private inFlight = 0;
  private closedFlag = false;

  /** True while a switch is under way. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** A request starts: false when the gate is closed (answer 503), else it is counted. */
  enter(): boolean {
    if (this.closedFlag) return false;
    this.inFlight++;
    return true;
  }

  /** A counted request ended. */
  leave(): void {
    if (this.inFlight > 0) this.inFlight--;
  }

  /** Closes the gate, then waits until no request is in flight or `drainMs` passed. */
  async close(drainMs = 30_000): Promise<void> {
    this.closedFlag = true;
    const until = Date.now() + drainMs;
    while (this.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  /** Opens the gate again. */
  open(): void {
    this.closedFlag = false;
  }
}

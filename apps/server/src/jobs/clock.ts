export interface ClockLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

/** One minute: how often a clock-driven task looks at the time. */
export const TICK_MS = 60_000;

/**
 * A task driven by the clock (the nightly Moodle sync, the morning digests): every server process
 * looks at the time now and then every minute until stop(); a look still running is not started
 * again, and a failed one is logged and tried at the next minute. What a look does, and how
 * several processes share the work, is the subclass's `tick`.
 */
export abstract class MinuteClock {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  protected constructor(
    private readonly failure: string,
    protected readonly log?: ClockLogger,
  ) {}

  abstract tick(): Promise<unknown>;

  /** Whether this clock runs at all (a schedule may be off). */
  protected get enabled(): boolean {
    return true;
  }

  /** Looks at the clock now and then every minute, until stop(). */
  start(intervalMs = TICK_MS): void {
    if (!this.enabled || this.timer) return;
    const run = () => {
      if (this.running) return;
      this.running = this.tick()
        .catch((err) => this.log?.error({ err }, this.failure))
        .finally(() => (this.running = null));
    };
    run();
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

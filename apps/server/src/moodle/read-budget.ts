import { AnswerTooLarge } from './answer-reader.js';

/**
 * The memory that Moodle answers may hold at once in this process (MOODLE_READ_MEMORY_MB), shared
 * by every client: each client holds what its answers built until it is closed (a sync keeps what
 * it read until it has written it). A slice that would pass the budget is refused before it is
 * parsed, so concurrent syncs together never build more than the budget, whatever Moodle sends.
 */
export class ReadBudget {
  private used = 0;

  constructor(readonly bytes: number) {}

  /** Bytes held now by every client. */
  get held() {
    return this.used;
  }

  lease(): ReadLease {
    return new ReadLease(this);
  }

  /** @internal */
  take(n: number) {
    if (this.used + n > this.bytes) {
      throw new AnswerTooLarge(
        `las respuestas de Moodle que el servidor lee a la vez ocuparían más de ${Math.round(this.bytes / (1024 * 1024))} MB de memoria`,
      );
    }
    this.used += n;
  }

  /** @internal */
  give(n: number) {
    this.used = Math.max(0, this.used - n);
  }
}

/** One client's share of a ReadBudget. */
export class ReadLease {
  private held = 0;

  constructor(private readonly budget: ReadBudget) {}

  hold(n: number) {
    this.budget.take(n);
    this.held += n;
  }

  /** What an answer held that was thrown away (a failed or refused read). */
  give(n: number) {
    const back = Math.min(n, this.held);
    this.held -= back;
    this.budget.give(back);
  }

  close() {
    this.give(this.held);
  }
}

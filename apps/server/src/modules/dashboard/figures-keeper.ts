import type { ClockLogger } from '../../jobs/clock.js';
import type { StudentFiguresRepository } from './student-figures.js';

/**
 * Recomputes the student figures of the courses a write has marked (migration 0008's marks: a
 * student's name edited, an enrolment moved, a Moodle sync) right after the write is answered or
 * the job has ended, instead of leaving it to the course's next reader, who would wait for it (and
 * every reader of the course arriving meanwhile with them): 30–100 ms for a course of 1,000
 * students beside a staffed day's other requests (docs/development/performance.md#marked-courses).
 * Readers still recompute a course they find marked (StudentFiguresRepository.fresh), so nothing
 * depends on this: it only moves the wait off the readers. One pass at a time per server process;
 * a poke during a pass makes one more after it.
 */
export class FiguresKeeper {
  private pass: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly figures: StudentFiguresRepository,
    private readonly log?: ClockLogger,
  ) {}

  poke(): void {
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.run()
      .catch((err) => this.log?.error({ err }, 'the student figures of marked courses could not be recomputed'))
      .finally(() => (this.pass = null));
  }

  /** Waits for the passes running now (a server closing, a test reading the marks). */
  async settle(): Promise<void> {
    while (this.pass) await this.pass;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      // fresh() looks at each course's mark again under its lock: a reader may have been first.
      for (const courseId of await this.figures.markedCourses()) await this.figures.fresh(courseId);
    } while (this.again);
  }
}

import type { ClockLogger } from '../jobs/clock.js';
import type { StudentFiguresRepository } from '../modules/dashboard/student-figures.js';

/**
 * Recomputes the student figures of the courses a write has marked (migration 0008: a student's
 * name edited, an enrolment moved, a Moodle sync) right after the write is answered, rather than
 * by the course's next readers, who would wait for it (docs/development/performance.md#marked-courses).
 * Readers still recompute a course they find marked, so nothing depends on this. One pass at a
 * time per server process; a poke during a pass makes one more after it.
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
      .catch((err) =>
        this.log?.error({ err }, 'the student figures of marked courses could not be recomputed'),
      )
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

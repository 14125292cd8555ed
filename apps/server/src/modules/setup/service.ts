import type { SetupProgress } from '@sigaf/contract';
import type { Database } from '../../db/database.js';
import { setupCounts } from './repository.js';

/** An installation's first steps: connect Moodle, create and synchronise courses, load students, create the staff. */
export class SetupService {
  constructor(private readonly db: Database) {}

  async progress(): Promise<SetupProgress> {
    const c = await setupCounts(this.db);
    return {
      moodle: c.moodle,
      courses: Number(c.courses),
      syncedCourses: Number(c.synced_courses),
      students: Number(c.students),
      staff: Number(c.staff),
    };
  }
}

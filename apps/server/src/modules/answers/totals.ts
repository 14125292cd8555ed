import type { AnswerVersionRepository } from './repository.js';

/** At most this many totals are kept (the least recently used go first). */
const MAX_TOTALS = 1000;

/**
 * Exact totals of searches across every student (the Estudiantes screen's search, a page of ten
 * and how many match: at 200,000 students, counting "gonz"'s 13,000 matches reads 5,400 table
 * pages, 13 ms), kept under the students' version (answer_versions scope -1, migration 0025). The
 * version is read first and a kept total is given only if it was counted at exactly that version;
 * otherwise it is counted again, reading data at least as new as the version: never staler than
 * the last committed change. Paging through a search counts it once.
 */
export class KeptTotals {
  private readonly kept = new Map<string, { version: string; n: number }>();

  constructor(private readonly versions: AnswerVersionRepository) {}

  async studentSearch(search: string, count: () => Promise<number>): Promise<number> {
    const version = await this.versions.studentsVersion();
    const hit = this.kept.get(search);
    if (hit && hit.version === version) {
      // Most recently used last (Map keeps insertion order).
      this.kept.delete(search);
      this.kept.set(search, hit);
      return hit.n;
    }
    const n = await count();
    this.kept.delete(search);
    this.kept.set(search, { version, n });
    if (this.kept.size > MAX_TOTALS) this.kept.delete(this.kept.keys().next().value!);
    return n;
  }
}

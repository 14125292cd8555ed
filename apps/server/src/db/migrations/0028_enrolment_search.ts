/**
 * Once: each enrolment held a copy of its student's folded name and RUT, kept by triggers, so that
 * a search among a course's students read the enrolments alone (about 1.5 ms less per search).
 * The staffed-day benchmark showed no gain from it, so it was taken out: a new database creates
 * nothing here, and 0038 drops what earlier databases have (docs/development/performance.md,
 * "What each mechanism buys"). Kept as a step so that migrated databases keep their history.
 */
export async function up(): Promise<void> {}

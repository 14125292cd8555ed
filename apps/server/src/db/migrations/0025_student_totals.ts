/**
 * Once: a version of the students as a whole (answer_versions scope -1), bumped by a trigger on
 * registered_users, under which the totals of searches across every student were kept. The
 * staffed-day benchmark showed no gain from it (a search's count over 20,000 students is a few
 * milliseconds), so it was taken out: a new database creates nothing here, and 0038 drops what
 * earlier databases have. Kept as a step so that migrated databases keep their history.
 */
export async function up(): Promise<void> {}

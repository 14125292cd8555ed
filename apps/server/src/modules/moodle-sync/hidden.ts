import type { MoodleClient } from '../../moodle/client.js';
import type { MoodleSection } from '../../moodle/schemas.js';
import type { LocalActivity } from './local-rows.js';

/**
 * Whether the token's user is known to see hidden activities (moodle/course:viewhiddenactivities).
 * Without it Moodle leaves a hidden activity out of the contents, completion and grade report
 * alike, so a missing activity may be deleted or hidden. Known when the contents list a hidden
 * module, or when the user is a site administrator (asked only when an activity SIGAF has is
 * missing from the contents: an unchanged course costs no call). Otherwise it cannot be told.
 */
export async function seesHiddenActivities(
  client: Pick<MoodleClient, 'getSiteInfo'>,
  contents: readonly MoodleSection[],
  local: readonly LocalActivity[],
): Promise<boolean> {
  const modules = contents.flatMap((s) => s.modules);
  if (modules.some((m) => m.visible === 0)) return true;
  const listed = new Set(modules.map((m) => m.id));
  const missing = local.some(
    (a) =>
      a.id_activity_moodle !== null && a.removed_at === null && !listed.has(a.id_activity_moodle),
  );
  if (!missing) return true;
  return (await client.getSiteInfo()).userissiteadmin === true;
}

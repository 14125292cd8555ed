import { isAdminLike, type MoodleSyncResult, type RoleKey } from '@sigaf/contract';

/** A sync's figures without the people: how many in each list, never their names or RUTs. */
export interface MoodleSyncCounts {
  scope: MoodleSyncResult['scope'];
  found: number;
  invalidRuts: number;
  missingInMoodle: number;
  missingLocally: number;
  identityHidden: number;
  suspended: number;
  activitiesAdded: number;
  activitiesUpdated: number;
  activitiesRemoved: number;
  hiddenActivities: number;
  rowsWritten: number;
  errors: number;
  startedAt: string;
  finishedAt: string;
}

export function syncCounts(r: MoodleSyncResult): MoodleSyncCounts {
  return {
    scope: r.scope,
    found: r.found,
    invalidRuts: r.invalidRuts.length,
    missingInMoodle: r.missingInMoodle.length,
    missingLocally: r.missingLocally.length,
    identityHidden: r.identityHidden?.length ?? 0,
    suspended: r.suspended,
    activitiesAdded: r.activitiesAdded,
    activitiesUpdated: r.activitiesUpdated,
    activitiesRemoved: r.activitiesRemoved,
    hiddenActivities: r.hiddenActivities?.length ?? 0,
    rowsWritten: r.rowsWritten,
    errors: r.errors.length,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  };
}

/**
 * A course's sync status as a role may read it: administrators the last result with its lists of
 * people (names, RUTs) and activities; everyone else its counts only (`result` null).
 */
export function statusFor<S extends { result: MoodleSyncResult | null }>(
  role: RoleKey | null,
  status: S,
): S & { counts: MoodleSyncCounts | null } {
  const counts = status.result ? syncCounts(status.result) : null;
  return { ...status, result: isAdminLike(role) ? status.result : null, counts };
}

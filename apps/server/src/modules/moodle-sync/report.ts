import { MOODLE_MSG, normalizeRut, type MoodleSyncIssue } from '@sigaf/contract';
import type { Matching } from './plan.js';

/** The matched students whose enrolment or account is suspended in Moodle, for the sync's report. */
export function suspendedStudents(
  matching: Matching,
  suspended: ReadonlySet<number>,
  suspendedAccounts: ReadonlySet<number>,
): MoodleSyncIssue[] {
  return matching.matches
    .filter((m) => suspended.has(m.user.id))
    .map((m) => ({
      source: 'local' as const,
      id: m.enrolment.id,
      rut: normalizeRut(m.enrolment.rut) ?? m.enrolment.rut,
      name: `${m.enrolment.name} ${m.enrolment.last_name}`.trim(),
      detail: suspendedAccounts.has(m.user.id)
        ? MOODLE_MSG.accountSuspended
        : MOODLE_MSG.enrolmentSuspended,
    }));
}

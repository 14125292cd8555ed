import type {
  MoodleCapabilityCheck,
  MoodleCapabilityReason,
  MoodleCapabilityState,
  MoodleCapabilityUse,
} from '@sigaf/contract';
import type { ConnectionReport } from './api';

/** Translation keys of what SIGAF uses a capability for, of a state, and of the reason for it. */
export const capabilityUseKey = (use: MoodleCapabilityUse) =>
  `moodle.settings.capabilities.use.${use}`;
export const capabilityStateKey = (state: MoodleCapabilityState) =>
  `moodle.settings.capabilities.state.${state}`;
export const capabilityReasonKey = (reason: MoodleCapabilityReason) =>
  `moodle.settings.capabilities.reason.${reason}`;

/**
 * Whether the test could not confirm that the token's user sees hidden activities: a hidden
 * activity then reads as gone, and SIGAF cannot tell it from a deleted one.
 */
export function hiddenActivitiesUnconfirmed(report: ConnectionReport): boolean {
  return (report.capabilities ?? []).some(
    (c) => c.capability === 'moodle/course:viewhiddenactivities' && c.state === 'unchecked',
  );
}

/** The capabilities the test found missing, in the order listed. */
export function missingCapabilities(report: ConnectionReport): MoodleCapabilityCheck[] {
  return (report.capabilities ?? []).filter((c) => c.state === 'missing');
}

/**
 * The colour of the connection result: a warning when a required function or a capability a
 * sync needs is missing, or a warning of the sync applies; a missing optional or push capability
 * is named but does not make the connection look broken.
 */
export function connectionSeverity(report: ConnectionReport): 'success' | 'warning' {
  const syncCapabilityMissing = missingCapabilities(report).some((c) => c.kind === 'sync');
  return report.ok &&
    !report.identityWarning &&
    !report.hiddenActivitiesWarning &&
    !hiddenActivitiesUnconfirmed(report) &&
    !syncCapabilityMissing
    ? 'success'
    : 'warning';
}

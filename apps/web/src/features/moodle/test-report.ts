import { MOODLE_CAPABILITIES, type MoodleCapabilityCheck } from '@sigaf/contract';
import type { ConnectionReport } from './api';

/** Tests' data: every capability as the connection test answers it, answered and present unless `over` says otherwise (by capability). */
export const capabilityChecks = (
  over: Record<string, Partial<MoodleCapabilityCheck>> = {},
): MoodleCapabilityCheck[] =>
  MOODLE_CAPABILITIES.map((c) => ({
    capability: c.capability,
    use: c.use,
    kind: c.kind,
    state: 'ok',
    reason: 'answered',
    detail: null,
    ...over[c.capability],
  }));

/** Tests' data: a successful connection test's answer, with `extra` over it. */
export const connectionReport = (extra: Partial<ConnectionReport> = {}): ConnectionReport => ({
  ok: true,
  siteName: 'Campus',
  siteUrl: 'https://campus.example',
  release: '5.2',
  version: null,
  username: 'sigaf',
  userIsSiteAdmin: false,
  missingFunctions: [],
  missingOptionalFunctions: [],
  identityWarning: null,
  hiddenActivitiesWarning: null,
  checkedMoodleCourseId: 4,
  capabilities: capabilityChecks(),
  ...extra,
});

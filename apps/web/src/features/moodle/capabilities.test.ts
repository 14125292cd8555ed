import { MOODLE_CAPABILITIES, MOODLE_CAPABILITY_REASONS, MOODLE_CAPABILITY_STATES, type MoodleCapabilityCheck } from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/moodle.en.json';
import es from '../../i18n/moodle.es.json';
import type { ConnectionReport } from './api';
import { capabilityReasonKey, capabilityStateKey, capabilityUseKey, connectionSeverity, missingCapabilities } from './capabilities';

/** The text of a dotted key in a translation file, or undefined. */
const text = (messages: unknown, key: string) => key.split('.').reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined), messages);

const report = (capabilities: Array<Partial<MoodleCapabilityCheck>>, extra: Partial<ConnectionReport> = {}): ConnectionReport => ({
  ok: true,
  siteName: 'Campus',
  siteUrl: 'https://campus.example',
  release: null,
  version: null,
  username: 'sigaf',
  userIsSiteAdmin: false,
  missingFunctions: [],
  missingOptionalFunctions: [],
  identityWarning: null,
  hiddenActivitiesWarning: null,
  checkedMoodleCourseId: 4,
  capabilities: MOODLE_CAPABILITIES.map((c, i) => ({ capability: c.capability, use: c.use, kind: c.kind, state: 'ok', reason: 'answered', detail: null, ...capabilities[i] })),
  ...extra,
});

describe('the capability list of the connection test', () => {
  it('has, in Spanish and English, what each capability is used for, each state, each reason and each kind', () => {
    const keys = [
      ...MOODLE_CAPABILITIES.map((c) => capabilityUseKey(c.use)),
      ...MOODLE_CAPABILITY_STATES.map(capabilityStateKey),
      ...MOODLE_CAPABILITY_REASONS.map(capabilityReasonKey),
      ...MOODLE_CAPABILITIES.filter((c) => c.kind !== 'sync').map((c) => `moodle.settings.capabilities.kind.${c.kind}`),
    ];
    for (const messages of [es, en]) expect(keys.filter((k) => typeof text(messages, k) !== 'string')).toEqual([]);
  });

  it('warns when a capability a sync needs is missing, names every missing one, and stays green for a missing push capability', () => {
    expect(connectionSeverity(report([]))).toBe('success');
    const grades = report([{}, { state: 'missing', reason: 'denied', detail: 'nopermissions' }]);
    expect(connectionSeverity(grades)).toBe('warning');
    expect(missingCapabilities(grades).map((c) => c.capability)).toEqual(['moodle/grade:viewall']);
    const push = report([{}, {}, {}, {}, {}, {}, { state: 'missing', reason: 'denied', detail: 'nopermissions' }]);
    expect([connectionSeverity(push), missingCapabilities(push).map((c) => c.capability)]).toEqual(['success', ['moodle/user:create']]);
    const unchecked = report(MOODLE_CAPABILITIES.map(() => ({ state: 'unchecked', reason: 'noLinkedCourse' })), { checkedMoodleCourseId: null });
    expect([connectionSeverity(unchecked), missingCapabilities(unchecked)]).toEqual(['success', []]);
    expect(connectionSeverity(report([], { hiddenActivitiesWarning: 'x' }))).toBe('warning');
    expect(connectionSeverity(report([], { ok: false }))).toBe('warning');
  });
});

import {
  MOODLE_CAPABILITIES,
  MOODLE_CAPABILITY_REASONS,
  MOODLE_CAPABILITY_STATES,
} from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/moodle.en.json';
import es from '../../i18n/moodle.es.json';
import {
  capabilityReasonKey,
  capabilityStateKey,
  capabilityUseKey,
  connectionSeverity,
  missingCapabilities,
} from './capabilities';
import { capabilityChecks, connectionReport } from './test-report';

/** The text of a dotted key in a translation file, or undefined. */
const text = (messages: unknown, key: string) =>
  key
    .split('.')
    .reduce<unknown>(
      (o, k) =>
        typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined,
      messages,
    );

const missing = (capability: string) => ({
  capabilities: capabilityChecks({
    [capability]: { state: 'missing', reason: 'denied', detail: 'nopermissions' },
  }),
});

describe('the capability list of the connection test', () => {
  it('has, in Spanish and English, what each capability is used for, each state, each reason and each kind', () => {
    const keys = [
      ...MOODLE_CAPABILITIES.map((c) => capabilityUseKey(c.use)),
      ...MOODLE_CAPABILITY_STATES.map(capabilityStateKey),
      ...MOODLE_CAPABILITY_REASONS.map(capabilityReasonKey),
      ...MOODLE_CAPABILITIES.filter((c) => c.kind !== 'sync').map(
        (c) => `moodle.settings.capabilities.kind.${c.kind}`,
      ),
    ];
    for (const messages of [es, en])
      expect(keys.filter((k) => typeof text(messages, k) !== 'string')).toEqual([]);
  });

  it('warns when a capability a sync needs is missing, names every missing one, and stays green for a missing push capability', () => {
    expect(connectionSeverity(connectionReport())).toBe('success');
    const grades = connectionReport(missing('moodle/grade:viewall'));
    expect(connectionSeverity(grades)).toBe('warning');
    expect(missingCapabilities(grades).map((c) => c.capability)).toEqual(['moodle/grade:viewall']);
    const push = connectionReport(missing('moodle/user:create'));
    expect([connectionSeverity(push), missingCapabilities(push).map((c) => c.capability)]).toEqual([
      'success',
      ['moodle/user:create'],
    ]);
    const unchecked = connectionReport({
      checkedMoodleCourseId: null,
      capabilities: capabilityChecks(
        Object.fromEntries(
          MOODLE_CAPABILITIES.map((c) => [
            c.capability,
            { state: 'unchecked', reason: 'noLinkedCourse' },
          ]),
        ),
      ),
    });
    // Nothing missing, but hidden activities unconfirmed: they would read as deleted.
    expect([connectionSeverity(unchecked), missingCapabilities(unchecked)]).toEqual([
      'warning',
      [],
    ]);
    expect(connectionSeverity(connectionReport({ hiddenActivitiesWarning: 'x' }))).toBe('warning');
    expect(connectionSeverity(connectionReport({ ok: false }))).toBe('warning');
  });
});

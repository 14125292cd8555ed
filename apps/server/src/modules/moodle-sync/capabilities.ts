import {
  MOODLE_CAPABILITIES,
  MOODLE_MSG,
  type MoodleCapabilityCheck,
  type MoodleCapabilityName,
  type MoodleCapabilityReason,
  type MoodleCapabilityState,
} from '@sigaf/contract';
import type { MoodleClient } from '../../moodle/client.js';
import { isMoodleError } from '../../moodle/errors.js';

/** Moodle's answers to a call whose capability the token's user lacks. */
const DENIED = new Set(['nopermissions', 'nopermissiontoviewgrades']);
/** Moodle's answers when the course itself cannot be read: nothing about capabilities can be told. */
const COURSE_UNREADABLE = new Set([
  'errorcoursecontextnotvalid',
  'invalidrecordunknown',
  'invalidrecord',
  'invalidcourseid',
]);
/** Participants read to judge the identity fields (besides the token's user). */
const SAMPLE_SIZE = 10;

export interface CapabilityProbeInput {
  /** A course of the platform already linked to Moodle (its Moodle id), if any. */
  moodleCourseId: number | undefined;
  /** The token's user (Moodle shows a user everything of themself: never the one to judge by). */
  selfId: number;
  siteAdmin: boolean;
  /** The functions the token's service allows. */
  available: ReadonlySet<string>;
}

export interface CapabilityProbe {
  capabilities: MoodleCapabilityCheck[];
  identityWarning: string | null;
  hiddenActivitiesWarning: string | null;
}

type Verdict = {
  state: MoodleCapabilityState;
  reason: MoodleCapabilityReason;
  detail: string | null;
};
const verdict = (
  state: MoodleCapabilityState,
  reason: MoodleCapabilityReason,
  detail: string | number | null = null,
): Verdict => ({
  state,
  reason,
  detail: detail === null ? null : String(detail),
});

/** A call's outcome: its answer, or the Moodle error it ended with (any other error is thrown). */
type Outcome<T> = { ok: true; value: T } | { ok: false; code: string; message: string };
async function attempt<T>(call: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    if (!isMoodleError(e)) throw e;
    return { ok: false, code: e.code, message: e.message };
  }
}

/** The verdict of a call that needs the capability: answered, denied, or it says nothing. */
function byAnswer(o: Outcome<unknown>): Verdict {
  if (o.ok) return verdict('ok', 'answered');
  if (DENIED.has(o.code)) return verdict('missing', 'denied', o.code);
  return verdict('unchecked', 'moodleError', o.message);
}

/**
 * What "Probar conexión" can tell of each capability in MOODLE_CAPABILITIES. No web-service
 * function answers a capability of the token's user, so each one is judged by its effect on a
 * course already linked (the calls a sync makes, read-only, for one participant other than the
 * token's user); what cannot be seen stays "unchecked", with the reason.
 */
export async function probeCapabilities(
  client: MoodleClient,
  input: CapabilityProbeInput,
): Promise<CapabilityProbe> {
  const found = new Map<MoodleCapabilityName, Verdict>();
  const set = (capability: MoodleCapabilityName, v: Verdict) => found.set(capability, v);
  const needs = (fn: string) =>
    input.available.has(fn) ? null : verdict('unchecked', 'functionNotAllowed', fn);
  let identityWarning: string | null = null;
  let hiddenActivitiesWarning: string | null = null;
  const courseid = input.moodleCourseId;

  set('moodle/user:create', verdict('unchecked', 'pushNotChecked'));
  set('enrol/manual:enrol', verdict('unchecked', 'pushNotChecked'));

  if (courseid === undefined) {
    for (const c of MOODLE_CAPABILITIES)
      if (!found.has(c.capability)) set(c.capability, verdict('unchecked', 'noLinkedCourse'));
  } else {
    const dependents: MoodleCapabilityName[] = [
      'moodle/grade:viewall',
      'report/progress:view',
      'moodle/user:viewalldetails',
      'moodle/user:update',
    ];
    let courseUnreadable: string | null = null;
    let participant: number | undefined;

    // Participants (moodle/course:viewparticipants), and their identity fields.
    const noParticipantsFn = needs('core_enrol_get_enrolled_users');
    if (noParticipantsFn) {
      set('moodle/course:viewparticipants', noParticipantsFn);
      for (const c of dependents) set(c, verdict('unchecked', 'notReached'));
    } else {
      const people = await attempt(() =>
        client.getEnrolledUsers(courseid, {
          limitnumber: SAMPLE_SIZE + 1,
          userfields: 'id,username,idnumber',
        }),
      );
      if (!people.ok && COURSE_UNREADABLE.has(people.code)) {
        courseUnreadable = people.message;
      } else if (!people.ok) {
        set('moodle/course:viewparticipants', byAnswer(people));
        for (const c of dependents) set(c, verdict('unchecked', 'notReached'));
      } else {
        set('moodle/course:viewparticipants', verdict('ok', 'answered'));
        const others = people.value.filter((u) => u.id !== input.selfId);
        participant = others[0]?.id;
        if (!others.length) {
          for (const c of dependents) set(c, verdict('unchecked', 'noParticipants'));
        } else if (others.some((u) => u.username)) {
          set('moodle/user:viewalldetails', verdict('ok', 'identityShown'));
        } else if (others.some((u) => u.idnumber)) {
          set('moodle/user:viewalldetails', verdict('missing', 'identityPartial'));
        } else {
          set('moodle/user:viewalldetails', verdict('missing', 'identityHidden'));
          identityWarning = MOODLE_MSG.identityFieldsMissing;
        }
      }
    }

    if (courseUnreadable === null) {
      const target = participant;
      // The calls a sync makes, for that participant; the contents and groups for the course.
      const [contents, grades, completion, account, groups] = await Promise.all([
        input.available.has('core_course_get_contents')
          ? attempt(() => client.getCourseContents(courseid))
          : null,
        target !== undefined && input.available.has('gradereport_user_get_grade_items')
          ? attempt(() => client.getGradeItems(courseid, target))
          : null,
        target !== undefined &&
        input.available.has('core_completion_get_activities_completion_status')
          ? attempt(() => client.getActivitiesCompletionStatus(courseid, target))
          : null,
        target !== undefined && input.available.has('core_user_get_users_by_field')
          ? attempt(() => client.getUsersByField('id', [target]))
          : null,
        input.available.has('core_group_get_course_groups')
          ? attempt(() => client.getCourseGroups(courseid))
          : null,
      ]);
      const unreadable = [contents, grades, completion, groups].find(
        (o) => o && !o.ok && COURSE_UNREADABLE.has(o.code),
      );
      if (unreadable && !unreadable.ok) courseUnreadable = unreadable.message;
      else {
        if (target !== undefined) {
          set(
            'moodle/grade:viewall',
            needs('gradereport_user_get_grade_items') ?? byAnswer(grades!),
          );
          set(
            'report/progress:view',
            needs('core_completion_get_activities_completion_status') ?? byAnswer(completion!),
          );
          // Moodle sends a user's account state (suspended) only to a user who may update users.
          set(
            'moodle/user:update',
            needs('core_user_get_users_by_field') ??
              (account!.ok
                ? account!.value.some((u) => u.suspended !== undefined)
                  ? verdict('ok', 'suspendedShown')
                  : verdict('missing', 'suspendedHidden')
                : ['accessexception'].includes(account!.code)
                  ? verdict('unchecked', 'functionNotAllowed', 'core_user_get_users_by_field')
                  : byAnswer(account!)),
          );
        }
        set(
          'moodle/course:managegroups',
          needs('core_group_get_course_groups') ?? byAnswer(groups!),
        );

        // Hidden activities (moodle/course:viewhiddenactivities): Moodle leaves them out of the
        // contents, completion and grade report of a user without it, so only a hidden module
        // listed tells (it is held); a graded one missing from the contents says it is not.
        const hidden = 'moodle/course:viewhiddenactivities';
        if (!contents)
          set(hidden, verdict('unchecked', 'functionNotAllowed', 'core_course_get_contents'));
        else if (!contents.ok) set(hidden, verdict('unchecked', 'moodleError', contents.message));
        else {
          const modules = contents.value.flatMap((s) => s.modules);
          const seen = new Set(modules.map((m) => m.id));
          const graded =
            grades?.ok === true
              ? new Set(
                  grades.value.usergrades.flatMap((g) =>
                    g.gradeitems
                      .filter((i) => i.itemtype === 'mod' && i.cmid !== undefined)
                      .map((i) => i.cmid!),
                  ),
                )
              : null;
          const unseen = graded ? [...graded].filter((cmid) => !seen.has(cmid)).length : 0;
          if (unseen) {
            set(hidden, verdict('missing', 'hiddenMissing', unseen));
            hiddenActivitiesWarning = MOODLE_MSG.hiddenActivitiesNotVisible(unseen);
          } else if (modules.some((m) => m.visible === 0))
            set(hidden, verdict('ok', 'hiddenShown'));
          else
            set(
              hidden,
              graded
                ? verdict('unchecked', 'noHiddenActivity')
                : verdict('unchecked', 'notReached'),
            );
        }
      }
    }
    if (courseUnreadable !== null) {
      for (const c of MOODLE_CAPABILITIES)
        if (!found.has(c.capability))
          set(c.capability, verdict('unchecked', 'courseNotAccessible', courseUnreadable));
    }
  }

  const capabilities = MOODLE_CAPABILITIES.map((c) => {
    let v = found.get(c.capability) ?? verdict('unchecked', 'notReached');
    // A site administrator holds every capability: what could not be seen is known all the same.
    if (input.siteAdmin && v.state === 'unchecked') v = verdict('ok', 'siteAdmin');
    return { capability: c.capability, use: c.use, kind: c.kind, ...v };
  });
  // Not confirmed: a hidden activity will read as gone, and SIGAF cannot tell it from a deleted one.
  const hidden = capabilities.find((c) => c.capability === 'moodle/course:viewhiddenactivities');
  if (hidden?.state === 'unchecked')
    hiddenActivitiesWarning = MOODLE_MSG.hiddenActivitiesUnconfirmed;
  return { capabilities, identityWarning, hiddenActivitiesWarning };
}

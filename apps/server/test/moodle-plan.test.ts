import { describe, expect, it } from 'vitest';
import type { MoodleEnrolledUser } from '../src/moodle/schemas.js';
import {
  activitiesOf,
  completionStatus,
  matchPeople,
  planActivities,
  planPeople,
  studentStatus,
  type LocalEnrolment,
} from '../src/modules/moodle-sync/plan.js';

/** The pure part of the sync: matching by RUT and the change plan, on hand-made cases. */

const enrolment = (id: number, rut: string, o: Partial<LocalEnrolment> = {}): LocalEnrolment => ({
  id,
  registered_user_id: 100 + id,
  rut,
  name: `Nombre${id}`,
  last_name: 'Apellido',
  last_access_registered_moodle: null,
  last_access_text: null,
  is_sincronized: false,
  moodle_suspended: false,
  moodle_seen: false,
  final_qualification_moodle: null,
  status_moodle: null,
  id_registered_moodle: null,
  rut_registered_moodle: null,
  name_registered_moodle: null,
  email_registered_moodle: null,
  student_status_moodle: null,
  ...o,
});

const user = (id: number, o: Partial<MoodleEnrolledUser> = {}): MoodleEnrolledUser => ({
  id,
  fullname: `User ${id}`,
  email: `u${id}@x.cl`,
  lastcourseaccess: 0,
  roles: [{ roleid: 5, name: '', shortname: 'student', sortorder: 0 }],
  ...o,
});

describe('matching by RUT', () => {
  it('idnumber first, then username, any spelling; duplicates, invalid RUTs and teachers', () => {
    const teacher = user(9, {
      username: 'profe',
      roles: [{ roleid: 3, name: '', shortname: 'editingteacher', sortorder: 0 }],
    });
    const m = matchPeople(
      [
        enrolment(1, '12.345.678-5'),
        enrolment(2, '17.000.003-K'),
        enrolment(3, '11.111.111-2'),
        enrolment(4, '20.111.222-2'),
      ],
      [
        user(3, { idnumber: '12345678-5', username: 'ana' }),
        user(4, { idnumber: 'EMP-4', username: '17000003k' }),
        user(5, { idnumber: '', username: 'carla' }),
        user(6, { username: '20.111.222-2' }),
        user(7, { idnumber: '201112222' }),
        teacher,
      ],
    );
    expect(m.matches.map((x) => [x.enrolment.id, x.user.id, x.moodleRut])).toEqual([
      [1, 3, '12345678-5'],
      [2, 4, '17000003k'],
      [4, 6, '20.111.222-2'],
    ]);
    expect(m.invalidRuts.map((i) => [i.source, i.id])).toEqual([
      ['moodle', 5],
      ['local', 3],
    ]);
    expect(m.errors).toEqual([
      'El RUT 20.111.222-2 está en más de un usuario de Moodle (6 y 7); se usa 6.',
    ]);
    expect(m.missingLocally).toEqual([]);
    expect(m.missingInMoodle).toEqual([]);
  });
});

describe('change plan', () => {
  it('activities: new ones added, renamed ones updated, labels ignored', () => {
    const contents = [
      {
        id: 1,
        name: 'S',
        summary: '',
        summaryformat: 1,
        component: null,
        itemid: null,
        modules: [
          { id: 10, name: 'Tarea', modname: 'assign', modicon: '', modplural: '', indent: 0 },
          {
            id: 11,
            name: 'Nota',
            modname: 'label',
            modicon: '',
            modplural: '',
            indent: 0,
            noviewlink: true,
          },
          { id: 12, name: 'Foro nuevo', modname: 'forum', modicon: '', modplural: '', indent: 0 },
        ],
      },
    ];
    const plan = planActivities(
      [
        {
          id: 1,
          id_activity_moodle: 10,
          description: 'Tarea vieja',
          type: 'assign',
          section_key: 'formative',
          removed_at: null,
          hidden: false,
        },
      ],
      activitiesOf(contents),
    );
    expect(plan).toEqual({
      inserts: [
        { id_activity_moodle: 12, description: 'Foro nuevo', type: 'forum', hidden: false },
      ],
      updates: [
        {
          id: 1,
          description: 'Tarea',
          type: 'assign',
          hidden: false,
          removed_at: null,
          moodle_unseen_at: null,
        },
      ],
      removed: 0,
      removedList: [],
      hiddenFromToken: [],
      unseen: [],
      refused: [],
    });
  });

  it('activities deleted in Moodle are marked removed (kept); hidden ones (visible: 0) say so; one that comes back is restored', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const contents = [
      {
        id: 1,
        name: 'S',
        summary: '',
        summaryformat: 1,
        component: null,
        itemid: null,
        modules: [
          {
            id: 10,
            name: 'Tarea',
            modname: 'assign',
            modicon: '',
            modplural: '',
            indent: 0,
            visible: 0,
          },
          {
            id: 30,
            name: 'Vuelve',
            modname: 'quiz',
            modicon: '',
            modplural: '',
            indent: 0,
            visible: 1,
          },
        ],
      },
    ];
    const local = [
      {
        id: 1,
        id_activity_moodle: 10,
        description: 'Tarea',
        type: 'assign',
        section_key: 'formative',
        removed_at: null,
        hidden: false,
      },
      {
        id: 2,
        id_activity_moodle: 20,
        description: 'Borrada',
        type: 'quiz',
        section_key: 'formative',
        removed_at: null,
        hidden: false,
      },
      {
        id: 3,
        id_activity_moodle: 30,
        description: 'Vuelve',
        type: 'quiz',
        section_key: 'formative',
        removed_at: new Date('2026-11-01'),
        hidden: false,
      },
      {
        id: 4,
        id_activity_moodle: 40,
        description: 'Ya borrada',
        type: 'quiz',
        section_key: 'formative',
        removed_at: new Date('2026-11-01'),
        hidden: false,
      },
    ];
    const plan = planActivities(local, activitiesOf(contents), now);
    expect(plan.removed).toBe(1);
    expect(plan.inserts).toEqual([]);
    const seen = { moodle_unseen_at: null };
    expect(plan.updates).toEqual([
      { id: 1, description: 'Tarea', type: 'assign', hidden: true, removed_at: null, ...seen },
      { id: 3, description: 'Vuelve', type: 'quiz', hidden: false, removed_at: null, ...seen },
      { id: 2, description: 'Borrada', type: 'quiz', hidden: false, removed_at: now, ...seen },
    ]);

    // The token's user not known to see hidden activities: the missing one is deleted or hidden,
    // it cannot be told; marked unseen (once), not removed. Seen again, the mark goes.
    const unsure = planActivities(local, activitiesOf(contents), now, new Set(), false);
    expect([unsure.removed, unsure.unseen]).toEqual([0, [{ cmid: 20, name: 'Borrada' }]]);
    expect(unsure.updates.find((u) => u.id === 2)).toEqual({
      id: 2,
      description: 'Borrada',
      type: 'quiz',
      hidden: false,
      removed_at: null,
      moodle_unseen_at: now,
    });
    const marked = local.map((a) => (a.id === 2 ? { ...a, moodle_unseen_at: now } : a));
    const again = planActivities(marked, activitiesOf(contents), now, new Set(), false);
    expect([again.unseen.length, again.updates.some((u) => u.id === 2)]).toEqual([1, false]);
    const back = planActivities(
      marked,
      [...activitiesOf(contents), { cmid: 20, name: 'Borrada', modname: 'quiz', hidden: false }],
      now,
      new Set(),
      false,
    );
    expect(back.updates.find((u) => u.id === 2)).toMatchObject({ moodle_unseen_at: null });
  });

  it('a student missing from the grade report (a suspended enrolment) keeps the grades and course total stored', () => {
    const e = enrolment(1, '12.345.678-5', {
      is_sincronized: true,
      moodle_seen: true,
      final_qualification_moodle: '85.00',
    });
    const matching = matchPeople([e], [user(3, { idnumber: '12.345.678-5' })]);
    const current = {
      id: 50,
      activity_id: 7,
      course_registered_user_id: 1,
      status_moodle: 'Finalizado',
      qualification_moodle: '90.00',
      completion_state: 1,
      grade: 90,
    };
    const plan = planPeople({
      withProgress: true,
      matching,
      enrolments: [e],
      activities: [
        {
          id: 7,
          id_activity_moodle: 70,
          description: 'A',
          type: 'quiz',
          section_key: 'formative',
          removed_at: null,
          hidden: false,
        },
      ],
      results: [current],
      grades: new Map(),
      completion: new Map([
        [3, [{ cmid: 70, modname: 'quiz', instance: 1, state: 1, timecompleted: 0, tracking: 2 }]],
      ]),
      suspended: new Set([3]),
    });
    expect(plan.resultUpdates).toEqual([]);
    expect(plan.resultInserts).toEqual([]);
    expect(plan.enrolments[0]).toMatchObject({
      id: 1,
      final_qualification_moodle: '85.00',
      moodle_suspended: true,
    });
  });

  it("keeps a student's results when their completion could not be read", () => {
    const e = enrolment(1, '12.345.678-5', { is_sincronized: true });
    const matching = matchPeople([e], [user(3, { idnumber: '12.345.678-5' })]);
    const current = {
      id: 50,
      activity_id: 7,
      course_registered_user_id: 1,
      status_moodle: 'Finalizado',
      qualification_moodle: null,
      completion_state: 1,
      grade: null,
    };
    const plan = planPeople({
      withProgress: true,
      matching,
      enrolments: [e],
      activities: [
        {
          id: 7,
          id_activity_moodle: 70,
          description: 'A',
          type: 'page',
          section_key: 'resign',
          removed_at: null,
          hidden: false,
        },
      ],
      results: [current],
      grades: new Map(),
      completion: new Map(),
    });
    expect(plan.resultInserts).toEqual([]);
    expect(plan.resultUpdates).toEqual([]);
    expect(plan.enrolments[0]).toMatchObject({
      id: 1,
      status_moodle: 'Renunciado',
      last_access_text: 'Nunca',
    });
  });

  it('completion states and the Renuncia rule', () => {
    const c = (state: number, rule = 0) => ({
      cmid: 1,
      modname: 'quiz',
      instance: 1,
      state,
      timecompleted: 0,
      tracking: 2,
      details: [{ rulename: 'completionview', rulevalue: { status: rule, description: 'View' } }],
    });
    expect([
      completionStatus(c(1)),
      completionStatus(c(3)),
      completionStatus(c(0, 1)),
      completionStatus(c(0)),
    ]).toEqual(['Finalizado', 'Finalizado', 'En curso', 'No iniciado']);
    const resign = new Set([9]);
    expect(studentStatus([], resign)).toBe('Sin actividades sincronizadas');
    expect(studentStatus([{ activity_id: 1, status_moodle: 'Finalizado' }], resign)).toBe('Activo');
    expect(studentStatus([{ activity_id: 9, status_moodle: 'En curso' }], resign)).toBe(
      'Renuncia en curso',
    );
    expect(studentStatus([{ activity_id: 9, status_moodle: 'Finalizado' }], resign)).toBe(
      'Renunciado',
    );
  });
});

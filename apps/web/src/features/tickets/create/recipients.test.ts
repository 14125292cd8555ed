import type { StudentOnActivities } from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import type { CourseSection, EnrolmentInfo } from '../api';
import {
  classroomsOf,
  filterRecipients,
  matchesSearch,
  noRecipientFilters,
  pendingStudents,
  pickableActivities,
  testFormOf,
} from './recipients';

const enrolment = (
  id: number,
  name: string,
  lastName: string,
  rut: string,
  classroom: { id: number; description: string } | null,
  lastAccess: string | null,
): EnrolmentInfo =>
  ({
    id,
    classroom,
    lastAccess,
    lastAccessText: null,
    registeredUser: { id: id + 100, rut, name, lastName, motherLastName: 'Soto' },
  }) as unknown as EnrolmentInfo;

const A1 = { id: 1, description: 'A1' };
const B2 = { id: 2, description: 'B2' };
const rows = [
  enrolment(1, 'Matías', 'Núñez', '11.111.111-2', A1, null),
  enrolment(2, 'Sofía', 'Pérez', '12.222.222-3', B2, '2026-03-01T10:00:00Z'),
  enrolment(3, 'Tomás', 'Ríos', '13.333.333-K', A1, '2026-03-02T10:00:00Z'),
  enrolment(4, 'Ana', 'Lagos', '14.444.444-4', null, null),
];

const state = (
  id: number,
  form: 'A' | 'B',
  status: string,
  activities: Array<[number, number | null, number | null]>,
) =>
  ({
    id,
    form,
    status,
    activities: activities.map(([activityId, completionState, grade]) => ({
      activityId,
      completionState,
      grade,
    })),
  }) as unknown as StudentOnActivities;

describe('Masivo recipients', () => {
  it('the picker leaves out Formativa and Renuncia', () => {
    const sections: CourseSection[] = [
      {
        id: 1,
        description: 'Formativa',
        key: 'formative',
        activities: [{ id: 10, description: 'Foro', idActivityMoodle: 1 }],
      },
      {
        id: 2,
        description: 'Renuncia',
        key: 'resign',
        activities: [{ id: 11, description: 'Renuncia', idActivityMoodle: 2 }],
      },
      {
        id: 3,
        description: 'Pre Test A',
        key: 'pre_test_a',
        activities: [{ id: 12, description: 'Pre test', idActivityMoodle: 3 }],
      },
      {
        id: null,
        description: 'Sin sección',
        key: null,
        activities: [{ id: 13, description: 'Tarea', idActivityMoodle: 4 }],
      },
    ];
    expect(pickableActivities(sections).map((a) => [a.id, a.section])).toEqual([
      [12, 'Pre Test A'],
      [13, 'Sin sección'],
    ]);
  });

  it('search ignores accents and case, and reads the RUT with or without dots', () => {
    expect(matchesSearch(rows[0]!, 'matias nunez')).toBe(true);
    expect(matchesSearch(rows[0]!, '11111111')).toBe(true);
    expect(matchesSearch(rows[1]!, 'PEREZ sofia')).toBe(true);
    expect(matchesSearch(rows[1]!, 'tomas')).toBe(false);
  });

  it('classroom, "Nunca", pending students and the search combine', () => {
    const ids = (list: EnrolmentInfo[]) => list.map((e) => e.id);
    expect(ids(filterRecipients(rows, noRecipientFilters(), '', null))).toEqual([1, 2, 3, 4]);
    expect(
      ids(filterRecipients(rows, { ...noRecipientFilters(), classroomId: 1 }, '', null)),
    ).toEqual([1, 3]);
    expect(ids(filterRecipients(rows, { ...noRecipientFilters(), never: true }, '', null))).toEqual(
      [1, 4],
    );
    expect(
      ids(
        filterRecipients(rows, { ...noRecipientFilters(), classroomId: 1, never: true }, '', null),
      ),
    ).toEqual([1]);
    expect(
      ids(
        filterRecipients(rows, { ...noRecipientFilters(), activityIds: [5] }, '', new Set([2, 3])),
      ),
    ).toEqual([2, 3]);
    expect(
      ids(
        filterRecipients(
          rows,
          { ...noRecipientFilters(), activityIds: [5] },
          'rios',
          new Set([2, 3]),
        ),
      ),
    ).toEqual([3]);
    expect(classroomsOf(rows)).toEqual([A1, B2]);
  });

  it('pending: no grade and not completed; withdrawn students out; a test section keeps its form only', () => {
    const states = [
      state(1, 'A', 'Activo', [[5, 0, null]]),
      state(2, 'B', 'Activo', [[5, 1, null]]),
      state(3, 'B', 'Activo', [[5, null, 6.5]]),
      state(4, 'A', 'Renunciado', [[5, null, null]]),
      state(5, 'B', 'Activo', [
        [5, 3, null],
        [6, 2, null],
      ]),
      state(6, 'A', 'Activo', [[6, null, null]]),
    ];
    expect([...pendingStudents(states, [5], null)]).toEqual([1, 5]);
    expect([...pendingStudents(states, [5, 6], null)]).toEqual([1, 5, 6]);
    expect([...pendingStudents(states, [5, 6], 'pre_test_a')]).toEqual([1, 6]);
    expect([...pendingStudents(states, [5, 6], 'post_test_b')]).toEqual([5]);
    expect([
      testFormOf('pre_test_a'),
      testFormOf('post_test_b'),
      testFormOf('survey'),
      testFormOf(null),
    ]).toEqual(['A', 'B', null, null]);
  });
});

import { sql, type RawBuilder } from 'kysely';
import { percentOf } from './sql.js';

/**
 * The student figures, each defined once (docs/development/domain.md#figures), as conditions on a
 * row of a course's students: `course_follow_up_rows` (one row per enrolment with profile
 * Estudiante, synchronised or not: migration 0015) under the alias given. Every card, chart,
 * table filter, PDF, workbook and answer of the original client that counts students uses these.
 *
 * A student Moodle has not confirmed yet (`synced` false) is part of the matrícula and of no other
 * figure: no state, no access, no progress, never at risk.
 */
const col = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** Withdrawal stages (dashboard/sql.ts resignStages): the status chart's order. */
export const STAGE = { active: 0, resigning: 1, resigned: 2 } as const;

export const FIGURES = {
  /** Matrícula inicial: every student enrolment of the scope. */
  enrolled: (_f: string): RawBuilder<unknown> => sql`true`,
  /** Sin sincronizar: enrolled, not yet confirmed by a Moodle sync. */
  unsynced: (f: string) => sql`not ${col(f, 'synced')}`,
  /** A state of the status chart (Activo, Renuncia en curso, Renunciado): synchronised, of that stage. */
  stage: (f: string, stage: number) =>
    sql`(${col(f, 'synced')} and ${col(f, 'stage')} = ${sql.lit(stage)})`,
  /** Han ingresado: synchronised, not withdrawn, accessed the course at least once. */
  accessed: (f: string) =>
    sql`(${col(f, 'synced')} and ${col(f, 'stage')} < 2 and ${col(f, 'last_access')} is not null)`,
  /** Nunca han ingresado: synchronised, not withdrawn, never accessed the course. */
  neverAccessed: (f: string) =>
    sql`(${col(f, 'synced')} and ${col(f, 'stage')} < 2 and ${col(f, 'last_access')} is null)`,
  /** A student's progress: round(100 × graded / expected) of the activities that count, null without any. */
  progress: (f: string) =>
    percentOf(col(f, 'graded') as RawBuilder<unknown>, col(f, 'expected') as RawBuilder<unknown>),
} as const;

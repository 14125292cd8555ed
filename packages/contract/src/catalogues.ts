import { ROLE_DESCRIPTIONS, ROLE_KEYS } from './roles.js';

export interface SeededValue {
  key: string | null;
  description: string;
}

/**
 * Initial values of every catalogue, by table (docs/development/domain.md#catalogues). Rows the
 * system relies on carry a stable key, so that renaming a description never changes behaviour;
 * the screens name a seeded value in their language while its description is still the seeded one.
 */
export const CATALOGUE_SEED = {
  roles: ROLE_KEYS.map((key) => ({ key, description: ROLE_DESCRIPTIONS[key] })),
  profiles: [
    { key: 'student', description: 'Estudiante' },
    { key: 'tutor', description: 'Tutor' },
  ],
  classrooms: [
    { key: null, description: 'Aula 1' },
    { key: null, description: 'Aula 2' },
    { key: null, description: 'Aula 3' },
  ],
  final_statuses: [
    { key: null, description: 'Aprobado' },
    { key: null, description: 'Reprobado' },
    { key: null, description: 'Desertor' },
  ],
  status_tickets: [
    { key: 'open', description: 'Abierto' },
    { key: 'closed', description: 'Cerrado' },
  ],
  priority_tickets: [
    { key: 'high', description: 'Alta' },
    { key: 'medium', description: 'Media' },
    { key: 'low', description: 'Baja' },
  ],
  motive_tickets: [
    { key: 'welcome', description: 'Bienvenida' },
    { key: 'problem', description: 'Problema' },
  ],
  status_detail_tickets: [
    { key: 'success', description: 'Exitoso' },
    { key: 'failure', description: 'Fallido' },
  ],
  source_tickets: [
    { key: 'incoming', description: 'Entrante' },
    { key: 'outgoing', description: 'Saliente' },
  ],
  type_tickets: [
    { key: 'email', description: 'Correo electrónico' },
    { key: 'phone', description: 'Contacto telefónico' },
  ],
  sections: [
    { key: 'resign', description: 'Renuncia' },
    { key: 'survey', description: 'Encuesta' },
    { key: 'pre_test_a', description: 'Pre Test A' },
    { key: 'pre_test_b', description: 'Pre Test B' },
    { key: 'post_test_a', description: 'Post Test A' },
    { key: 'post_test_b', description: 'Post Test B' },
    { key: 'formative', description: 'Formativa' },
  ],
} as const satisfies Record<string, readonly SeededValue[]>;

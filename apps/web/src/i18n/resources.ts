import enBase from './en.json';
import esBase from './es.json';
import enStudents from './students.en.json';
import esStudents from './students.es.json';
import enTickets from './tickets.en.json';
import esTickets from './tickets.es.json';
import enMail from './mail.en.json';
import esMail from './mail.es.json';
import enDashboard from './dashboard.en.json';
import esDashboard from './dashboard.es.json';
import enFollowup from './followup.en.json';
import esFollowup from './followup.es.json';
import enMoodle from './moodle.en.json';
import esMoodle from './moodle.es.json';
import enAgenda from './agenda.en.json';
import esAgenda from './agenda.es.json';
import enOutcomes from './outcomes.en.json';
import esOutcomes from './outcomes.es.json';

/**
 * Translations: the shell's file plus one file per feature area (each owns its top-level keys),
 * so areas can grow their texts without touching each other's files. The login screen needs only
 * the shell's file (`./index`); the feature areas load with the signed-in application
 * (`./features`).
 */
export const esFeatures = {
  ...esStudents,
  ...esTickets,
  ...esMail,
  ...esDashboard,
  ...esFollowup,
  ...esMoodle,
  ...esAgenda,
  ...esOutcomes,
};
export const enFeatures = {
  ...enStudents,
  ...enTickets,
  ...enMail,
  ...enDashboard,
  ...enFollowup,
  ...enMoodle,
  ...enAgenda,
  ...enOutcomes,
};
export const es = { ...esBase, ...esFeatures };
export const en = { ...enBase, ...enFeatures };

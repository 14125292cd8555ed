import enBase from './en.json';
import esBase from './es.json';
import enStudents from './students.en.json';
import esStudents from './students.es.json';
import enTickets from './tickets.en.json';
import esTickets from './tickets.es.json';
import enMail from './mail.en.json';
import esMail from './mail.es.json';

/**
 * Translations: the shell's file plus one file per feature area (each owns its top-level keys),
 * so areas can grow their texts without touching each other's files.
 */
export const es = { ...esBase, ...esStudents, ...esTickets, ...esMail };
export const en = { ...enBase, ...enStudents, ...enTickets, ...enMail };

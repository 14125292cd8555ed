import { chileDateTime, chileParts } from '@sigaf/contract';
import type { EnrolmentInfo, StudentContact } from './api';

/** Display helpers of the ticket screens: behaviour follows catalogue keys, never descriptions. */

export type ChipColor = 'error' | 'warning' | 'success' | 'default';

/** Alta red, Media orange, Baja green. */
export function priorityColor(key: string | null | undefined): ChipColor {
  return key === 'high' ? 'error' : key === 'medium' ? 'warning' : key === 'low' ? 'success' : 'default';
}

/** Exitoso green, Fallido red. */
export function outcomeColor(key: string | null | undefined): ChipColor {
  return key === 'success' ? 'success' : key === 'failure' ? 'error' : 'default';
}

export const fullName = (s: Pick<StudentContact, 'name' | 'lastName' | 'motherLastName'>) => [s.name, s.lastName, s.motherLastName].filter(Boolean).join(' ');

/** "dd-mm-yyyy HH:mm" from the server's Chilean date and time. */
export const stamp = (x: { createdAt: string; createdTime: string }) => `${x.createdAt} ${x.createdTime}`;

/** "HH:mm" for a lock taken today, "dd-mm-yyyy HH:mm" otherwise. */
export const lockSince = (lock: { createdAt: string; since: string }) => (lock.createdAt === chileParts(new Date()).date ? lock.since : `${lock.createdAt} ${lock.since}`);

/** Moodle's own text ("Nunca", "3 días 4 horas"), else the moment, else null. */
export const lastAccess = (e: Pick<EnrolmentInfo, 'lastAccess' | 'lastAccessText'>) => e.lastAccessText || (e.lastAccess ? chileDateTime(e.lastAccess) : null);

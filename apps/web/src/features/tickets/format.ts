import { chileDateTime, chileParts } from '@sigaf/contract';
import type { EnrolmentInfo, StudentContact } from './api';

// Display helpers of the ticket screens; the colours of priorities, statuses and attempt results
// are StateChip's (STATE_LOOKS in the contract), by catalogue key, never by description.

export const fullName = (s: Pick<StudentContact, 'name' | 'lastName' | 'motherLastName'>) =>
  [s.name, s.lastName, s.motherLastName].filter(Boolean).join(' ');

/** "dd-mm-yyyy HH:mm" from the server's Chilean date and time. */
export const stamp = (x: { createdAt: string; createdTime: string }) =>
  `${x.createdAt} ${x.createdTime}`;

/** "HH:mm" for a lock taken today, "dd-mm-yyyy HH:mm" otherwise. */
export const lockSince = (lock: { createdAt: string; since: string }) =>
  lock.createdAt === chileParts(new Date()).date ? lock.since : `${lock.createdAt} ${lock.since}`;

/** Moodle's own text ("Nunca", "3 días 4 horas"), else the moment, else null. */
export const lastAccess = (e: Pick<EnrolmentInfo, 'lastAccess' | 'lastAccessText'>) =>
  e.lastAccessText || (e.lastAccess ? chileDateTime(e.lastAccess) : null);

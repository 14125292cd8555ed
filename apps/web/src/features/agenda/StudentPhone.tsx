import type { AttemptMedium } from '@sigaf/contract';
import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useStudentDetail } from '../follow-up/api';
import { CHANNEL_MEDIUM, PhoneContact } from '../tickets/ContactActions';

/**
 * The student's phone numbers in the agenda's attempt dialog, each with its call link and (for a
 * mobile) WhatsApp; a call or a message started here sets the attempt's medium.
 */
export function StudentPhone({
  enrolmentId,
  onContact,
}: {
  enrolmentId: number;
  onContact: (medium: AttemptMedium) => void;
}) {
  const { t } = useTranslation();
  const detail = useStudentDetail(enrolmentId);
  const d = detail.data;
  if (!d) return null;
  const s = d.student;
  return (
    <Typography variant="body2" component="div" data-testid="attempt-phone">
      {s.phone ? (
        <PhoneContact
          number={s.phone}
          onContact={(channel) => onContact(CHANNEL_MEDIUM[channel])}
          target={{
            enrolmentId: s.id,
            course: d.course,
            name: s.name,
            lastName: s.lastName,
            rut: s.rut,
            classroom: s.classroom,
          }}
        />
      ) : (
        t('followUp.detail.noPhone')
      )}
    </Typography>
  );
}

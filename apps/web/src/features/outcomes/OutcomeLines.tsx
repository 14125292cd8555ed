import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Box, Typography } from '@mui/material';
import type { AttemptOutcome } from '@sigaf/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useTicketOutcomes } from './api';
import { outcomeLine } from './format';

/** The line under a contact attempt: what the student did in Moodle after it (nothing when unknown). */
export function AttemptOutcomeLine({ outcome }: { outcome: AttemptOutcome | undefined }) {
  const { t } = useTranslation();
  const line = outcome ? outcomeLine(t, outcome) : null;
  if (!line) return null;
  return (
    <Typography
      variant="caption"
      component="p"
      aria-label={`${t('outcomes.line.label')}: ${line}`}
      sx={{ color: 'text.secondary', display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.25 }}
    >
      <TrendingUpIcon sx={{ fontSize: 14 }} aria-hidden />
      {line}
    </Typography>
  );
}

/** What the card says: nothing to count, the contacts already measured, then those too recent ("0 de 0" never). */
export function studentSummary(
  t: TFunction,
  s: { attempts: number; settled7: number; accessed7: number },
) {
  if (s.attempts === 0) return t('outcomes.student.none');
  // One contact measured reads as a sentence, not "1 de 1".
  const measured =
    s.settled7 === 1
      ? t(s.accessed7 ? 'outcomes.student.summaryOneBack' : 'outcomes.student.summaryOneNot')
      : s.settled7
        ? t('outcomes.student.summary', { accessed: s.accessed7, settled: s.settled7 })
        : '';
  const pending =
    s.attempts > s.settled7
      ? t('outcomes.student.pending', { count: s.attempts - s.settled7 })
      : '';
  return [measured, pending].filter(Boolean).join(' ');
}

/** The student card's summary: of the contacts to this student in the course the caller may see, how many were followed by a Moodle access within 7 days. */
export function StudentOutcomes({ ticketId, version }: { ticketId: number; version?: number }) {
  const { t } = useTranslation();
  const { data } = useTicketOutcomes(ticketId, version);
  if (!data) return null;
  const s = data.student;
  return (
    <Box component="section" aria-label={t('outcomes.student.title')} sx={{ mt: 1.5 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('outcomes.student.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {studentSummary(t, s)}
      </Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {t(`outcomes.student.scope.${s.scope}`)}
      </Typography>
      {s.last && <AttemptOutcomeLine outcome={s.last} />}
    </Box>
  );
}

import { Box, Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAllCourseStudents, useCourseSections } from '../api';
import { classroomsOf, pickableActivities, type RecipientFilters } from './recipients';

/** "Información resumen" of Masivo: the filters that chose the recipients (pending activities, classroom, "Nunca"). */
export function RecipientsSummary({
  courseId,
  filters,
}: {
  courseId: number;
  filters: RecipientFilters;
}) {
  const { t } = useTranslation();
  const sections = useCourseSections(courseId);
  const students = useAllCourseStudents(courseId);
  const activities = pickableActivities(sections.data ?? []).filter((a) =>
    filters.activityIds.includes(a.id),
  );
  const classroom = classroomsOf(students.data ?? []).find((c) => c.id === filters.classroomId);
  if (!activities.length && !classroom && !filters.never) return null;
  const count = (n: number) => (n === 0 ? t('tickets.massive.none') : String(n));
  return (
    <Box sx={{ mt: 2 }} aria-label={t('tickets.massive.summaryTitle')} role="group">
      <Typography variant="subtitle2">{t('tickets.massive.summaryTitle')}</Typography>
      <Typography variant="body2">
        {t('tickets.massive.summaryActivities', {
          count: activities.length,
          n: count(activities.length),
        })}
      </Typography>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', my: 0.5 }}>
        {activities.map((a) => (
          <Chip key={a.id} size="small" label={a.description} />
        ))}
      </Stack>
      <Typography variant="body2">
        {t('tickets.massive.summaryClassrooms', {
          count: classroom ? 1 : 0,
          n: count(classroom ? 1 : 0),
        })}
      </Typography>
      {classroom && <Chip size="small" label={classroom.description} sx={{ my: 0.5 }} />}
      {filters.never && (
        <Typography variant="body2">{t('tickets.massive.summaryNever')}</Typography>
      )}
    </Box>
  );
}

import LightbulbIcon from '@mui/icons-material/Lightbulb';
import { Alert, Stack, Typography } from '@mui/material';
import { idleGroupOf, OUTCOME_SUGGESTION_MIN } from '@sigaf/contract';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { similarQuery } from '../outcomes/api';
import { similarLine } from '../outcomes/format';
import { useAgendaStudents } from './api';

/**
 * Mi agenda's suggestions for the students at risk: for each course, and each group of days
 * without access its students at risk are in, the medium and the hour after which most of the
 * course's students in that same group accessed Moodle within 7 days (groups of at least 30
 * student-weeks), else the course's contacts as a whole by the same rule (nothing when neither).
 * Said on screen to be the whole course's figures (every staff member's contacts), not the caller's.
 */
export function AgendaSuggestions({ userId }: { userId?: number }) {
  const { t } = useTranslation();
  const students = useAgendaStudents({ user_id: userId, page: 1, perPage: 100 });
  const rows = students.data?.rows ?? [];
  const courses = [...new Map(rows.map((s) => [s.courseId, s.course])).entries()];
  const similar = useQueries({
    queries: courses.map(([id]) => similarQuery(id)),
  });
  const lines = courses.flatMap(([id, name], i) => {
    const atRisk = new Set(
      rows.filter((s) => s.courseId === id).map((s) => idleGroupOf(s.daysWithoutAccess)),
    );
    const data = similar[i]?.data;
    const own = (data?.groups ?? []).filter((g) => atRisk.has(g.idle));
    // Students at risk whose group has no suggestion of its own: the course's contacts as a whole.
    const rest =
      data?.course && [...atRisk].some((idle) => !own.some((g) => g.idle === idle))
        ? [similarLine(t, name, { idle: 'all', ...data.course })]
        : [];
    return [...own.map((g) => similarLine(t, name, g)), ...rest];
  });
  if (!lines.length) return null;
  return (
    <Alert
      severity="info"
      icon={<LightbulbIcon />}
      sx={{ mt: 2 }}
      component="section"
      role="region"
      aria-label={t('outcomes.suggestion.title')}
    >
      <Stack spacing={0.5}>
        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="suggestion-scope">
          {t('outcomes.suggestion.scope')}
        </Typography>
        {lines.map((l) => (
          <Typography key={l} variant="body2">
            {l}
          </Typography>
        ))}
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('outcomes.suggestion.why', { min: OUTCOME_SUGGESTION_MIN })}
        </Typography>
      </Stack>
    </Alert>
  );
}

import LightbulbIcon from '@mui/icons-material/Lightbulb';
import { Alert, Stack, Typography } from '@mui/material';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAgendaStudents } from '../agenda/api';
import { suggestionQuery } from './api';
import { percent } from './format';

/**
 * Mi agenda's suggestion for each course with students at risk: the channel and the hour with the
 * best re-engagement in that course (groups of at least 30 contacts; nothing otherwise), and why.
 */
export function AgendaSuggestions({ userId }: { userId?: number }) {
  const { t } = useTranslation();
  const students = useAgendaStudents({ user_id: userId, page: 1, perPage: 100 });
  const courses = [...new Map((students.data?.rows ?? []).map((s) => [s.courseId, s.course])).entries()];
  const suggestions = useQueries({
    queries: courses.map(([id]) => suggestionQuery(id)),
  });
  const lines = courses.flatMap(([, name], i) => {
    const s = suggestions[i]?.data;
    if (!s?.channel) return [];
    const channel = t('outcomes.suggestion.channel', { course: name, channel: s.channel.label, rate: percent(s.channel.rate), n: s.channel.n });
    const hour = s.hour ? `; ${t('outcomes.suggestion.hour', { hour: s.hour.key, rate: percent(s.hour.rate), n: s.hour.n })}` : '';
    return [`${channel}${hour}`];
  });
  if (!lines.length) return null;
  return (
    <Alert severity="info" icon={<LightbulbIcon />} sx={{ mt: 2 }} component="section" aria-label={t('outcomes.suggestion.title')}>
      <Stack spacing={0.5}>
        {lines.map((l) => (
          <Typography key={l} variant="body2">
            {l}
          </Typography>
        ))}
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('outcomes.suggestion.why')}
        </Typography>
      </Stack>
    </Alert>
  );
}

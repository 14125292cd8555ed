import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import type { StudentMatch } from '@sigaf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../../../lib/api';

/** At least this many characters before a search is sent (the server's rule too). */
const MIN_SEARCH = 3;

/**
 * One search box by name (any case, with or without accents) or RUT (any spelling) over the
 * caller's active courses, the shown course's students first; each option names its course.
 */
export function StudentFinder({
  courseId,
  courseName,
  onPick,
}: {
  courseId: number;
  courseName: string;
  onPick: (match: StudentMatch | null) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery({
    queryKey: ['tickets', 'find-student', courseId, search],
    enabled: search.length >= MIN_SEARCH,
    queryFn: ({ signal }) =>
      getData<StudentMatch[]>('/api/v2/course-registered-users/find', {
        query: { search, course_id: courseId },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const options = search.length >= MIN_SEARCH ? (found.data ?? []) : [];
  return (
    <Autocomplete<StudentMatch>
      sx={{ maxWidth: 640 }}
      options={options}
      filterOptions={(o) => o}
      loading={found.isFetching}
      getOptionLabel={(m) => `${m.fullName} · ${m.rut}`}
      getOptionKey={(m) => m.enrolmentId}
      isOptionEqualToValue={(a, b) => a.enrolmentId === b.enrolmentId}
      onInputChange={(_, value, reason) => reason !== 'reset' && setText(value)}
      onChange={(_, value) => onPick(value)}
      noOptionsText={
        text.trim().length < MIN_SEARCH
          ? t('tickets.single.typeMore')
          : found.isFetching
            ? t('app.loading')
            : t('tickets.single.noMatch')
      }
      renderOption={({ key, ...props }, m) => (
        <Box component="li" key={key} {...props}>
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {m.fullName} · {m.rut}
            </Typography>
            <Typography
              variant="caption"
              color={m.courseId === courseId ? 'primary' : 'text.secondary'}
            >
              {m.category} › {m.course}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus
          label={t('tickets.single.find')}
          helperText={t('tickets.single.findHint', { course: courseName })}
        />
      )}
    />
  );
}

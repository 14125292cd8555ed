import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import {
  Box,
  LinearProgress,
  Link,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Typography,
} from '@mui/material';
import type { SetupProgress } from '@sigaf/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getData } from '../../lib/api';

interface Step {
  key: 'moodle' | 'courses' | 'students' | 'staff';
  done: boolean;
  links: Array<{ to: string; label: string }>;
  detail?: string;
}

/**
 * The first steps of an installation (administrators): connect Moodle, create the courses, load
 * their students, create the staff; each says whether it is done and where to do it, with the
 * progress through them. Gone once all are done.
 */
export function SetupSteps() {
  const { t } = useTranslation();
  const progress = useQuery({
    queryKey: ['setup-progress'],
    queryFn: ({ signal }) => getData<SetupProgress>('/api/v2/setup-progress', { signal }),
    staleTime: 30_000,
  });
  const p = progress.data;
  if (!p) return null;
  const steps: Step[] = [
    {
      key: 'moodle',
      done: p.moodle,
      links: [{ to: '/my/configuracion/actividad', label: t('home.setup.moodle.link') }],
    },
    {
      key: 'courses',
      done: p.courses > 0,
      links: [
        { to: '/my/configuracion/actividad', label: t('home.setup.courses.import') },
        { to: '/my/mantenedor/Curso', label: t('home.setup.courses.create') },
      ],
    },
    {
      key: 'students',
      done: p.students > 0,
      links: [
        { to: '/my/configuracion/actividad', label: t('home.setup.students.sync') },
        { to: '/my/configuracion/cargar-estudiantes', label: t('home.setup.students.load') },
      ],
      detail:
        p.courses > 0
          ? t('home.setup.students.synced', { synced: p.syncedCourses, count: p.courses })
          : undefined,
    },
    {
      key: 'staff',
      done: p.staff > 0,
      links: [{ to: '/my/mantenedor/Usuario', label: t('home.setup.staff.link') }],
    },
  ];
  const done = steps.filter((s) => s.done).length;
  if (done === steps.length) return null;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="setup-title"
      data-testid="setup-steps"
      sx={{ p: 2, mb: 3 }}
    >
      <Typography id="setup-title" variant="h6" component="h2">
        {t('home.setup.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('home.setup.intro')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1.5 }}>
        <LinearProgress
          variant="determinate"
          value={(done / steps.length) * 100}
          sx={{ flex: 1, height: 8, borderRadius: 4 }}
          aria-label={t('home.setup.progress', { done, count: steps.length })}
        />
        <Typography
          variant="body2"
          sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
          data-testid="setup-progress"
        >
          {t('home.setup.progress', { done, count: steps.length })}
        </Typography>
      </Box>
      <List dense component="ol" sx={{ mt: 1 }}>
        {steps.map((s, i) => (
          <ListItem
            key={s.key}
            component="li"
            alignItems="flex-start"
            data-testid={`setup-${s.key}`}
            data-done={s.done}
          >
            <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
              {s.done ? (
                <CheckCircleIcon color="success" aria-label={t('home.setup.done')} />
              ) : (
                <RadioButtonUncheckedIcon color="action" aria-label={t('home.setup.pending')} />
              )}
            </ListItemIcon>
            <ListItemText
              primary={`${i + 1}. ${t(`home.setup.${s.key}.title`)}`}
              slotProps={{ primary: { sx: { fontWeight: 600 } } }}
              secondary={
                <>
                  {t(`home.setup.${s.key}.hint`)}
                  {s.detail ? ` ${s.detail}` : ''}{' '}
                  {s.links.map((l, j) => (
                    <span key={l.to + l.label}>
                      {j > 0 ? ' · ' : ''}
                      <Link component={RouterLink} to={l.to}>
                        {l.label}
                      </Link>
                    </span>
                  ))}
                </>
              }
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

import type { TutorRef } from '@sigaf/contract';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { ApiError } from '../../lib/api';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { saveClassroomTutors, useClassroomTutors } from './api';

/**
 * "Tutores" of a classroom in a course (maintenance screen Aula): the users with role Tutor who
 * follow it there. A tutor sees in Seguimiento only the course classrooms assigned here.
 */
export default function ClassroomTutorsDialog({
  row,
  onClose,
}: {
  row: { id: number; description?: unknown };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [course, setCourse] = useState<CourseOption | null>(null);
  const tutors = useClassroomTutors(course?.id ?? null, row.id);
  const [chosen, setChosen] = useState<TutorRef[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (tutors.data && chosen === null) setChosen(tutors.data.tutors);
  }, [tutors.data, chosen]);
  const chooseCourse = (c: CourseOption | null) => {
    setCourse(c);
    setChosen(null);
    setError(null);
  };

  const save = async () => {
    if (!course) return;
    setSaving(true);
    setError(null);
    try {
      const res = await saveClassroomTutors(
        course.id,
        row.id,
        (chosen ?? []).map((c) => c.id),
      );
      notify(res.message);
      await queryClient.invalidateQueries({ queryKey: ['classroom-tutors', course.id, row.id] });
      await queryClient.invalidateQueries({ queryKey: ['follow-up'] });
      onClose();
    } catch (err) {
      setError(
        err instanceof ApiError
          ? (Object.values(err.fieldErrors).flat()[0] ?? err.message)
          : t('common.error'),
      );
    } finally {
      setSaving(false);
    }
  };

  const name = tutors.data?.classroom.description ?? String(row.description ?? '');
  const ids = (list: TutorRef[]) =>
    list
      .map((x) => x.id)
      .sort((a, b) => a - b)
      .join(',');
  // A changed selection is not dropped without asking.
  const { close, guard } = useDiscardGuard(
    Boolean(tutors.data && chosen && ids(chosen) !== ids(tutors.data.tutors)),
    onClose,
  );
  return (
    <Dialog
      open
      onClose={saving ? undefined : close}
      maxWidth="sm"
      fullWidth
      aria-labelledby="classroom-tutors-title"
    >
      <DialogTitle id="classroom-tutors-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('followUp.tutors.title', { classroom: name })}
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mt: 2, mb: 2 }}>
          {t('followUp.tutors.hint')}
        </Typography>
        <Box sx={{ mb: 2 }}>
          <CourseSelector value={course} onChange={chooseCourse} />
        </Box>
        {!course && <Alert severity="info">{t('followUp.tutors.chooseCourse')}</Alert>}
        {course && tutors.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
            <CircularProgress aria-label={t('followUp.detail.loading')} />
          </Box>
        )}
        {tutors.isError && (
          <Alert severity="error">
            {tutors.error instanceof ApiError ? tutors.error.message : t('common.loadError')}
          </Alert>
        )}
        {tutors.data && (
          <>
            {tutors.data.candidates.length === 0 && (
              <Alert severity="info" sx={{ mb: 2 }}>
                {t('followUp.tutors.none')}
              </Alert>
            )}
            <Autocomplete
              multiple
              options={tutors.data.candidates}
              value={chosen ?? []}
              onChange={(_e, v) => setChosen(v)}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              getOptionLabel={(o) => `${o.name} (${o.email})`}
              disabled={saving}
              renderValue={(value, getItemProps) =>
                value.map((o, index) => {
                  const { key, ...itemProps } = getItemProps({ index });
                  return <Chip key={key} label={o.name} {...itemProps} />;
                })
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('followUp.tutors.label')}
                  placeholder={t('followUp.tutors.placeholder')}
                />
              )}
            />
          </>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      {guard}
      <DialogActions>
        <Button onClick={close} disabled={saving}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void save()}
          disabled={saving || !course || !tutors.data}
        >
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

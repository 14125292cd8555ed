import { AGENDA_DEFAULTS } from '@sigaf/contract';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Skeleton,
  Stack,
  TextField,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { DayField } from '../../components/DayField';
import { useNotify } from '../../components/Snackbar';
import { ApiError, getData, request } from '../../lib/api';
import { useDiscardGuard } from '../../components/useDiscardGuard';

interface Settings {
  contactDays: number;
  inactiveDays: number;
  progressPercent: number;
  startsOn: string | null;
  endsOn: string | null;
}

/** Administrators: a course's agenda thresholds (N days without contact, D days without access, P % of the expected progress) and its dates. */
export function CourseSettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [course, setCourse] = useState<CourseOption | null>(null);
  const settings = useQuery({
    queryKey: ['agenda', 'course-settings', course?.id],
    enabled: Boolean(course),
    queryFn: () => getData<Settings>(`/api/v2/agenda/courses/${course!.id}/settings`),
  });
  const [form, setForm] = useState({
    contact_days: String(AGENDA_DEFAULTS.contactDays),
    inactive_days: String(AGENDA_DEFAULTS.inactiveDays),
    progress_percent: String(AGENDA_DEFAULTS.progressPercent),
    starts_on: '',
    ends_on: '',
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  useEffect(() => {
    const s = settings.data;
    if (s)
      setForm({
        contact_days: String(s.contactDays),
        inactive_days: String(s.inactiveDays),
        progress_percent: String(s.progressPercent),
        starts_on: s.startsOn ?? '',
        ends_on: s.endsOn ?? '',
      });
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () =>
      request<{ message: string }>(`/api/v2/agenda/courses/${course!.id}/settings`, {
        method: 'PUT',
        body: { ...form, starts_on: form.starts_on || null, ends_on: form.ends_on || null },
      }),
    onSuccess: (res) => {
      notify(res.message);
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
      onClose();
    },
    onError: (err) => setErrors(err instanceof ApiError ? err.fieldErrors : {}),
  });
  const saved = settings.data;
  const { close, guard } = useDiscardGuard(
    Boolean(saved) &&
      JSON.stringify(form) !==
        JSON.stringify({
          contact_days: String(saved!.contactDays),
          inactive_days: String(saved!.inactiveDays),
          progress_percent: String(saved!.progressPercent),
          starts_on: saved!.startsOn ?? '',
          ends_on: saved!.endsOn ?? '',
        }),
    onClose,
  );
  const field = (name: keyof typeof form, type: 'number' | 'date') => {
    const common = {
      label: t(`agenda.settings.${name}`),
      error: Boolean(errors[name]),
      helperText: errors[name]?.[0],
      disabled: !course || settings.isPending,
      fullWidth: true,
    };
    return type === 'date' ? (
      <DayField
        {...common}
        value={form[name]}
        onChange={(day) => setForm({ ...form, [name]: day })}
      />
    ) : (
      <TextField
        {...common}
        type={type}
        value={form[name]}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
    );
  };
  return (
    <Dialog
      open
      onClose={save.isPending ? undefined : close}
      maxWidth="sm"
      fullWidth
      aria-labelledby="agenda-settings-title"
    >
      <DialogTitle id="agenda-settings-title">{t('agenda.settings.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <CourseSelector value={course} onChange={setCourse} />
          {save.isError &&
            !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length) && (
              <Alert severity="error">
                {save.error instanceof ApiError ? save.error.message : t('common.error')}
              </Alert>
            )}
          {settings.isError && <Alert severity="error">{t('common.loadError')}</Alert>}
          {course && settings.isPending ? (
            <Skeleton variant="rounded" height={120} />
          ) : (
            <>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {field('contact_days', 'number')}
                {field('inactive_days', 'number')}
                {field('progress_percent', 'number')}
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {field('starts_on', 'date')}
                {field('ends_on', 'date')}
              </Stack>
              <Alert severity="info">{t('agenda.settings.help')}</Alert>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={save.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => save.mutate()}
          disabled={!course || save.isPending || settings.isPending}
        >
          {t('common.save')}
        </Button>
      </DialogActions>
      {guard}
    </Dialog>
  );
}

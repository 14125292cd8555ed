import { moodleImportSchema, type MoodleCategoryItem } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { importMoodleCourse, useMoodleCategories, useMoodleCourses, usePlatforms } from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';

/** Import a course from Moodle, by its id or by browsing Moodle's categories: links (or creates) the local category and course. */
export function ImportCourseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const platforms = usePlatforms();
  const [platformId, setPlatformId] = useState<number | ''>('');
  const [tab, setTab] = useState<'id' | 'browse'>('id');
  const [moodleId, setMoodleId] = useState('');
  const [idError, setIdError] = useState<string | null>(null);
  const [category, setCategory] = useState<MoodleCategoryItem | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  // A typed Moodle course id is not dropped without asking.
  const { close, guard } = useDiscardGuard(open && moodleId.trim() !== '', onClose);
  const categories = useMoodleCategories(platformId, open && tab === 'browse');
  const courses = useMoodleCourses(platformId, category?.id ?? null);

  useEffect(() => {
    if (open && platformId === '' && platforms.data?.length) setPlatformId(platforms.data[0]!.id);
  }, [open, platformId, platforms.data]);
  useEffect(() => {
    if (!open) {
      setMoodleId('');
      setIdError(null);
      setCategory(null);
    }
  }, [open]);

  const doImport = async (id: number) => {
    if (platformId === '') return;
    setBusy(id);
    try {
      const res = await importMoodleCourse(platformId, id);
      notify(`${res.message} ${res._data.category.description} / ${res._data.course.description}`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['options'] }),
        queryClient.invalidateQueries({ queryKey: ['category-courses'] }),
        queryClient.invalidateQueries({ queryKey: ['moodle-courses'] }),
        queryClient.invalidateQueries({ queryKey: ['moodle-categories'] }),
        queryClient.invalidateQueries({ queryKey: ['resource'] }),
      ]);
      if (tab === 'id') onClose();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error', 8000);
    } finally {
      setBusy(null);
    }
  };

  const importById = () => {
    const parsed = moodleImportSchema.safeParse({
      moodleCourseId: moodleId.trim() === '' ? undefined : moodleId.trim(),
    });
    if (!parsed.success) {
      setIdError(parsed.error.issues[0]?.message ?? t('common.error'));
      return;
    }
    setIdError(null);
    void doImport(parsed.data.moodleCourseId);
  };

  const loadError =
    categories.error instanceof ApiError
      ? categories.error.message
      : courses.error instanceof ApiError
        ? courses.error.message
        : null;
  return (
    <Dialog
      open={open}
      onClose={busy !== null ? undefined : close}
      fullWidth
      maxWidth="md"
      aria-labelledby="moodle-import-title"
    >
      <DialogTitle id="moodle-import-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('moodle.import.title')}
      </DialogTitle>
      {busy !== null && <LinearProgress />}
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label={t('moodle.settings.platform')}
            value={platformId}
            onChange={(e) => setPlatformId(Number(e.target.value))}
          >
            {(platforms.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.description}
              </MenuItem>
            ))}
          </TextField>
          <Tabs
            value={tab}
            onChange={(_e, v: 'id' | 'browse') => setTab(v)}
            aria-label={t('moodle.import.title')}
          >
            <Tab value="id" label={t('moodle.import.byId')} />
            <Tab value="browse" label={t('moodle.import.browse')} />
          </Tabs>
          {tab === 'id' && (
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ alignItems: 'flex-start' }}
            >
              <TextField
                label={t('moodle.import.moodleId')}
                value={moodleId}
                onChange={(e) => setMoodleId(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') importById();
                }}
                error={Boolean(idError)}
                helperText={idError ?? t('moodle.import.idHint')}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <Button
                variant="contained"
                onClick={importById}
                disabled={busy !== null || platformId === ''}
                sx={{ mt: 1 }}
              >
                {t('moodle.import.import')}
              </Button>
            </Stack>
          )}
          {tab === 'browse' && (
            <Box
              sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}
            >
              {loadError && (
                <Alert severity="error" sx={{ gridColumn: '1 / -1' }}>
                  {loadError}
                </Alert>
              )}
              <Box>
                <Typography variant="subtitle2">{t('moodle.import.categories')}</Typography>
                {categories.isLoading && (
                  <CircularProgress size={24} aria-label={t('moodle.loading')} />
                )}
                {categories.data?.length === 0 && (
                  <Typography variant="body2">{t('moodle.import.noCategories')}</Typography>
                )}
                <List
                  dense
                  aria-label={t('moodle.import.categories')}
                  sx={{ maxHeight: 360, overflow: 'auto' }}
                >
                  {(categories.data ?? []).map((c) => (
                    <ListItemButton
                      key={c.id}
                      selected={category?.id === c.id}
                      onClick={() => setCategory(c)}
                      sx={{ pl: 1 + (c.depth - 1) * 2 }}
                    >
                      <ListItemText
                        primary={c.name}
                        secondary={t('moodle.import.categoryInfo', { n: c.courseCount, id: c.id })}
                      />
                    </ListItemButton>
                  ))}
                </List>
              </Box>
              <Box>
                <Typography variant="subtitle2">
                  {category
                    ? t('moodle.import.coursesOf', { name: category.name })
                    : t('moodle.import.pickCategory')}
                </Typography>
                {courses.isLoading && (
                  <CircularProgress size={24} aria-label={t('moodle.loading')} />
                )}
                {courses.data?.length === 0 && (
                  <Typography variant="body2">{t('moodle.import.noCourses')}</Typography>
                )}
                <List dense aria-label={t('moodle.import.courses')}>
                  {(courses.data ?? []).map((c) => (
                    <Box key={c.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
                      <ListItemText
                        primary={c.fullname}
                        secondary={`${c.shortname} · id ${c.id}`}
                      />
                      <Button
                        size="small"
                        variant={c.localCourseId ? 'text' : 'outlined'}
                        disabled={busy !== null}
                        onClick={() => void doImport(c.id)}
                      >
                        {c.localCourseId ? t('moodle.import.linked') : t('moodle.import.import')}
                      </Button>
                    </Box>
                  ))}
                </List>
              </Box>
            </Box>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy !== null}>
          {t('common.close')}
        </Button>
      </DialogActions>
      {guard}
    </Dialog>
  );
}

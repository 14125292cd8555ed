import ClassIcon from '@mui/icons-material/Class';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Divider,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { GridColDef, GridRowSelectionModel } from '@mui/x-data-grid';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CourseSelector } from '../../components/CourseSelector';
import { useCurrentCourse } from '../../lib/rememberedCourse';
import { PageCard } from '../../components/PageCard';
import { SearchBox } from '../../components/SearchBox';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useFitColumns } from '../../components/useFitColumns';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useOptions } from '../maintenance/api';
import {
  assignClassroom,
  autoSplit,
  classroomCounts,
  courseEnrolments,
  downloadRoster,
  type EnrolmentProps,
  type SplitResult,
} from './api';

const UNASSIGNED = 'none';

/** A horizontal bar per classroom: the number of students in it. */
function ClassroomChart({
  data,
  title,
}: {
  data: Array<{ label: string; count: number }>;
  title: string;
}) {
  const max = Math.max(1, ...data.map((d) => d.count));
  return (
    <Box role="figure" aria-label={title} sx={{ my: 2 }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {data.map((d) => (
        <Box
          key={d.label}
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}
          data-testid="classroom-bar"
        >
          <Typography variant="body2" sx={{ width: 140, flexShrink: 0 }} noWrap title={d.label}>
            {d.label}
          </Typography>
          <Box sx={{ flexGrow: 1, bgcolor: 'grey.100', borderRadius: 1 }}>
            <Box
              sx={{
                width: `${(d.count / max) * 100}%`,
                minWidth: 2,
                bgcolor: 'primary.main',
                height: 20,
                borderRadius: 1,
              }}
            />
          </Box>
          <Typography variant="body2" sx={{ width: 48, textAlign: 'right' }}>
            {d.count}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** Conformación de aulas: pick students of a course, put them in a classroom, or split the rest evenly. */
export default function BuildClassroomsPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [course, setCourse] = useCurrentCourse();
  const [filter, setFilter] = useState<string>('');
  const [search, setSearch] = useState('');
  const { params: page, grid, firstPage } = useServerPage(25);
  const [selection, setSelection] = useState<Set<number>>(new Set());
  const [target, setTarget] = useState<number | ''>('');
  const [profile, setProfile] = useState<number | ''>('');
  const [splitIds, setSplitIds] = useState<number[]>([]);
  const [plan, setPlan] = useState<SplitResult | null>(null);
  const classrooms = useOptions('classrooms');
  const profiles = useOptions('profiles');
  const query = {
    search: search || undefined,
    classroom_id: filter && filter !== UNASSIGNED ? Number(filter) : undefined,
    unassigned: filter === UNASSIGNED ? '1' : undefined,
    sort: page.sort,
    order: page.order,
  };
  const list = useQuery({
    queryKey: ['course-enrolments', course?.id, query, page],
    enabled: Boolean(course),
    queryFn: () =>
      courseEnrolments(course!.id, { ...query, page: page.page, perPage: page.perPage }),
    placeholderData: (prev) => prev,
  });
  const counts = useQuery({
    queryKey: ['classroom-counts', course?.id],
    enabled: Boolean(course),
    queryFn: () => classroomCounts(course!.id),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['course-enrolments'] }),
      queryClient.invalidateQueries({ queryKey: ['classroom-counts'] }),
    ]);
  const onSearch = useCallback(
    (s: string) => {
      setSearch(s);
      firstPage();
    },
    [firstPage],
  );

  const columns = useMemo<GridColDef<EnrolmentProps>[]>(
    () => [
      {
        field: 'classroom',
        headerName: t('students.classroom'),
        width: 140,
        sortable: true,
        valueGetter: (_v, r) =>
          r.classroom?.id ? r.classroom.description : t('students.noClassroom'),
      },
      {
        field: 'rut',
        headerName: t('students.rut'),
        width: 140,
        valueGetter: (_v, r) => r.registeredUser.rut,
      },
      {
        field: 'name',
        headerName: t('students.fields.name'),
        flex: 1,
        minWidth: 140,
        valueGetter: (_v, r) => r.registeredUser.name,
      },
      {
        field: 'lastName',
        headerName: t('students.fields.last_name'),
        flex: 1,
        minWidth: 140,
        valueGetter: (_v, r) => r.registeredUser.lastName,
      },
      {
        field: 'motherLastName',
        headerName: t('students.fields.mother_last_name'),
        flex: 1,
        minWidth: 140,
        sortable: false,
        valueGetter: (_v, r) => r.registeredUser.motherLastName ?? '',
      },
      {
        field: 'region',
        headerName: t('students.fields.region'),
        flex: 1,
        minWidth: 140,
        sortable: false,
        valueGetter: (_v, r) => r.registeredUser.region ?? '',
      },
      {
        field: 'profile',
        headerName: t('students.profile'),
        width: 120,
        sortable: false,
        valueGetter: (_v, r) => r.profile.description,
      },
    ],
    [t],
  );
  const fit = useFitColumns(columns, {
    remember: 'build-classrooms',
    checkbox: true,
    hideFirst: ['region', 'motherLastName', 'profile', 'rut', 'lastName'],
  });

  const selectAllMatching = async () => {
    if (!course) return;
    const all = await courseEnrolments(course.id, query, true);
    setSelection(new Set(all.rows.map((r) => r.id)));
  };

  const assign = async () => {
    if (!selection.size) return notify(t('students.build.needSelection'), 'warning');
    if (target === '') return notify(t('students.build.needClassroom'), 'warning');
    try {
      const res = await assignClassroom(
        target,
        [...selection],
        profile === '' ? undefined : profile,
      );
      notify(res.message);
      setSelection(new Set());
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  };

  const previewSplit = async () => {
    if (!course || !splitIds.length) return notify(t('students.build.needClassroom'), 'warning');
    try {
      setPlan((await autoSplit(course.id, splitIds, false))._data);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  };

  const chart = (counts.data ?? []).map((c) => ({
    label: c.classroom ?? t('students.noClassroom'),
    count: c.count,
  }));
  const selectionModel: GridRowSelectionModel = { type: 'include', ids: selection };
  return (
    <PageCard
      title={t('students.build.title')}
      icon={<ClassIcon />}
      actions={
        course && (
          <Button
            startIcon={<FileDownloadIcon />}
            variant="outlined"
            onClick={() =>
              void downloadRoster(course.id).catch(() => notify(t('common.error'), 'error'))
            }
          >
            {t('students.build.roster')}
          </Button>
        )
      }
    >
      <CourseSelector
        value={course}
        onChange={(c) => {
          setCourse(c);
          setSelection(new Set());
          setPlan(null);
        }}
      />
      {!course && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('course.choose')}
        </Alert>
      )}
      {course && (
        <>
          {counts.data && counts.data.length === 0 ? (
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('students.build.empty')}
            </Alert>
          ) : (
            <ClassroomChart data={chart} title={t('students.build.chart')} />
          )}
          <Divider sx={{ my: 2 }} />
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            sx={{ alignItems: { md: 'center' }, mb: 1 }}
          >
            <SearchBox onChange={onSearch} />
            <TextField
              select
              label={t('students.build.filterClassroom')}
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value);
                firstPage();
              }}
              sx={{ width: 220 }}
              fullWidth={false}
            >
              <MenuItem value="">{t('students.build.all')}</MenuItem>
              <MenuItem value={UNASSIGNED}>{t('students.build.unassigned')}</MenuItem>
              {(classrooms.data ?? []).map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {c.description}
                </MenuItem>
              ))}
            </TextField>
            <Typography variant="body2" aria-live="polite">
              {t('students.build.selected', { n: selection.size })}
            </Typography>
            <Button
              size="small"
              onClick={() => void selectAllMatching()}
              disabled={!list.data?.total}
            >
              {t('students.build.selectAllMatching', { n: list.data?.total ?? 0 })}
            </Button>
            {selection.size > 0 && (
              <Button size="small" onClick={() => setSelection(new Set())}>
                {t('students.build.clearSelection')}
              </Button>
            )}
          </Stack>
          <ServerDataGrid
            label={t('students.build.title')}
            rows={list.data?.rows ?? []}
            total={list.data?.total ?? 0}
            {...fit}
            loading={list.isFetching}
            checkboxSelection
            keepNonExistentRowsSelected
            rowSelectionModel={selectionModel}
            onRowSelectionModelChange={(m) => setSelection(new Set([...m.ids].map(Number)))}
            {...grid}
            density="compact"
          />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ mt: 2, alignItems: { sm: 'center' } }}
          >
            <TextField
              select
              label={t('students.build.classroom')}
              value={target}
              onChange={(e) => setTarget(Number(e.target.value))}
              sx={{ width: 220 }}
              fullWidth={false}
            >
              {(classrooms.data ?? []).map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.description}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={t('students.build.profile')}
              value={profile}
              onChange={(e) => setProfile(e.target.value === '' ? '' : Number(e.target.value))}
              sx={{ width: 220 }}
              fullWidth={false}
            >
              <MenuItem value="">{t('students.build.keepProfile')}</MenuItem>
              {(profiles.data ?? []).map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.description}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="contained" onClick={() => void assign()}>
              {t('students.build.assign')}
            </Button>
          </Stack>
          <Divider sx={{ my: 3 }} />
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('students.build.split')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('students.build.splitHint')}
          </Typography>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ alignItems: { sm: 'center' } }}
          >
            <TextField
              select
              label={t('students.build.splitClassrooms')}
              value={splitIds}
              onChange={(e) =>
                setSplitIds(
                  (typeof e.target.value === 'string'
                    ? []
                    : (e.target.value as unknown as number[])
                  ).map(Number),
                )
              }
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (v) =>
                    (classrooms.data ?? [])
                      .filter((c) => (v as number[]).includes(c.id))
                      .map((c) => c.description)
                      .join(', '),
                },
              }}
              sx={{ width: 320 }}
              fullWidth={false}
            >
              {(classrooms.data ?? []).map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  <Checkbox checked={splitIds.includes(c.id)} size="small" />
                  <ListItemText primary={c.description} />
                </MenuItem>
              ))}
            </TextField>
            <Button variant="outlined" onClick={() => void previewSplit()}>
              {t('students.build.splitPreview')}
            </Button>
          </Stack>
          <ConfirmDialog
            open={Boolean(plan)}
            title={t('students.build.split')}
            message={
              plan && plan.total
                ? plan.plan
                    .map((p) =>
                      t('students.build.splitPlan', { classroom: p.classroom, n: p.count }),
                    )
                    .join(' · ')
                : t('students.build.splitNone')
            }
            onCancel={() => setPlan(null)}
            onConfirm={async () => {
              if (!plan?.total) return setPlan(null);
              try {
                const res = await autoSplit(course.id, splitIds, true);
                notify(res.message);
                await refresh();
              } catch (err) {
                notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
              } finally {
                setPlan(null);
              }
            }}
          />
        </>
      )}
    </PageCard>
  );
}

import {
  Alert,
  Autocomplete,
  Box,
  Chip,
  FormControlLabel,
  MenuItem,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../../components/SearchBox';
import { useFitColumns } from '../../../components/useFitColumns';
import {
  studentsOnActivities,
  useAllCourseStudents,
  useCourseSections,
  type EnrolmentInfo,
} from '../api';
import { lastAccess } from '../format';
import { gridHeaderSx, selectionProps, useGridLocale } from '../TicketGrid';
import { errorText } from './parts';
import {
  classroomsOf,
  filterRecipients,
  pendingStudents,
  pickableActivities,
  type RecipientFilters,
} from './recipients';

interface Props {
  courseId: number;
  filters: RecipientFilters;
  onFilters: (filters: RecipientFilters) => void;
  selected: number[];
  onSelected: (ids: number[]) => void;
  /** "Continuar" was pressed with nobody chosen. */
  needOne: boolean;
}

/** The students' state on the chosen activities, when some are chosen. */
export function usePendingStudents(courseId: number, activityIds: number[]) {
  const sections = useCourseSections(courseId);
  const firstKey =
    sections.data?.find((s) => s.activities.some((a) => a.id === activityIds[0]))?.key ?? null;
  return useQuery({
    queryKey: ['tickets', 'pending', courseId, activityIds],
    enabled: activityIds.length > 0 && sections.isSuccess,
    queryFn: async () =>
      pendingStudents(await studentsOnActivities(courseId, activityIds), activityIds, firstKey),
  });
}

/** Step "Destinatarios" of Masivo: pending activities, classroom, "Nunca" and the search narrow the course's students. */
export function RecipientsStep({
  courseId,
  filters,
  onFilters,
  selected,
  onSelected,
  needOne,
}: Props) {
  const { t } = useTranslation();
  const gridLocale = useGridLocale();
  const [search, setSearch] = useState('');
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 10 });
  const students = useAllCourseStudents(courseId);
  const sections = useCourseSections(courseId);
  const pending = usePendingStudents(courseId, filters.activityIds);
  const activities = useMemo(() => pickableActivities(sections.data ?? []), [sections.data]);
  const classrooms = useMemo(() => classroomsOf(students.data ?? []), [students.data]);
  const choosing = filters.activityIds.length > 0;
  const rows = useMemo(
    () =>
      filterRecipients(
        students.data ?? [],
        filters,
        search,
        choosing ? (pending.data ?? new Set()) : null,
      ),
    [students.data, filters, search, choosing, pending.data],
  );
  const set = (patch: Partial<RecipientFilters>) => {
    onFilters({ ...filters, ...patch });
    setPagination((p) => ({ ...p, page: 0 }));
  };

  const columns = useMemo<GridColDef<EnrolmentInfo>[]>(
    () => [
      {
        field: 'rut',
        headerName: t('tickets.columns.rut'),
        width: 130,
        valueGetter: (_v, r) => r.registeredUser.rut,
      },
      {
        field: 'name',
        headerName: t('tickets.student.name'),
        flex: 1,
        minWidth: 130,
        valueGetter: (_v, r) => r.registeredUser.name,
      },
      {
        field: 'lastName',
        headerName: t('tickets.student.lastName'),
        flex: 1,
        minWidth: 130,
        valueGetter: (_v, r) => r.registeredUser.lastName,
      },
      {
        field: 'motherLastName',
        headerName: t('tickets.student.motherLastName'),
        flex: 1,
        minWidth: 130,
        valueGetter: (_v, r) => r.registeredUser.motherLastName ?? '',
      },
      {
        field: 'classroom',
        headerName: t('tickets.columns.classroom'),
        width: 110,
        valueGetter: (_v, r) => r.classroom?.description || t('tickets.noClassroom'),
      },
      {
        field: 'lastAccess',
        headerName: t('tickets.student.lastAccess'),
        width: 160,
        valueGetter: (_v, r) => lastAccess(r) ?? t('tickets.student.never'),
      },
    ],
    [t],
  );
  // On a phone the names stay; the column menu shows the others.
  const fit = useFitColumns(columns, {
    checkbox: true,
    hideFirst: ['motherLastName', 'classroom', 'lastAccess', 'rut', 'lastName'],
  });

  const chosen = activities.filter((a) => filters.activityIds.includes(a.id));
  const failure = students.error ?? sections.error ?? pending.error;
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Autocomplete
          multiple
          options={activities}
          groupBy={(a) => a.section}
          getOptionLabel={(a) => a.description}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={chosen}
          onChange={(_e, v) => set({ activityIds: v.map((a) => a.id) })}
          loading={sections.isLoading}
          noOptionsText={t('tickets.massive.noActivities')}
          renderValue={(value, getItemProps) =>
            value.map((a, index) => (
              <Chip size="small" label={a.description} {...getItemProps({ index })} key={a.id} />
            ))
          }
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('tickets.massive.pendingFilter')}
              helperText={t('tickets.massive.pendingHint')}
            />
          )}
          sx={{ minWidth: 320, flex: 2 }}
        />
        <TextField
          select
          label={t('tickets.massive.classroomFilter')}
          value={filters.classroomId}
          onChange={(e) =>
            set({ classroomId: e.target.value === '' ? '' : Number(e.target.value) })
          }
          sx={{ minWidth: 180, flex: 1 }}
        >
          <MenuItem value="">{t('tickets.massive.allClassrooms')}</MenuItem>
          {classrooms.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.description}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch checked={filters.never} onChange={(e) => set({ never: e.target.checked })} />
          }
          label={t('tickets.massive.never')}
          title={t('tickets.massive.neverHint')}
          sx={{ mt: 1 }}
        />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <SearchBox
          onChange={(s) => {
            setSearch(s);
            setPagination((p) => ({ ...p, page: 0 }));
          }}
          width={320}
        />
        <Typography role="status" sx={{ fontWeight: 600 }}>
          {t('tickets.massive.selected', { count: selected.length })}
        </Typography>
        <Typography color="text.secondary">
          {t('tickets.massive.shown', { count: rows.length, total: students.data?.length ?? 0 })}
        </Typography>
      </Box>
      {needOne && selected.length === 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('tickets.massive.selectOne')}
        </Alert>
      )}
      {failure && <Alert severity="error">{errorText(failure, t('common.loadError'))}</Alert>}
      <DataGrid
        aria-label={t('tickets.massive.stepRecipients')}
        rows={rows}
        {...fit}
        loading={students.isFetching || pending.isFetching}
        paginationModel={pagination}
        onPaginationModelChange={setPagination}
        pageSizeOptions={[10, 25, 50, 100]}
        disableColumnFilter
        autoHeight
        {...selectionProps(selected, onSelected)}
        localeText={{ ...gridLocale, noRowsLabel: t('tickets.massive.noStudents') }}
        sx={gridHeaderSx}
      />
    </>
  );
}

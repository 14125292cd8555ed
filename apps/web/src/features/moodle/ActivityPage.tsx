import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import EditIcon from '@mui/icons-material/Edit';
import SettingsEthernetIcon from '@mui/icons-material/SettingsEthernet';
import ViewListIcon from '@mui/icons-material/ViewList';
import { resourceByKey, type ResourceDecl } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  Chip,
  Stack,
  TextField,
  Tooltip,
  Typography,
  useTheme,
} from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
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
import { useSession } from '../../lib/session';
import { saveResource, useResourceList, type Row } from '../maintenance/api';
import { displayValue, statusLabels } from '../maintenance/fields';
import { ResourceForm } from '../maintenance/ResourceForm';
import { confirmActivityRemoval, setActivityExcluded, useSectionGroups } from './api';
import { activityTypeLabel } from './activityType';
import { ImportCourseDialog } from './ImportCourseDialog';
import { MoodleSettingsDialog } from './MoodleSettingsDialog';
import { SyncPanel } from './SyncPanel';

/** Columns of the activity table, in this order, from the activity declaration. */
const COLUMNS = ['description', 'id_activity_moodle', 'type', 'weighing', 'section_id'];
/** What staff edit here: section and weighing (name and Moodle id come from Moodle). */
const EDITABLE = ['section_id', 'weighing'];

/** The activity declaration narrowed to the edit of section and weighing (the section is then required). */
function editDecl(decl: ResourceDecl): ResourceDecl {
  return {
    ...decl,
    fields: decl.fields
      .filter((f) => EDITABLE.includes(f.name))
      .map((f) => (f.name === 'section_id' ? { ...f, required: true } : f)),
  };
}

/**
 * Actividades (configuracion/actividad): a course's activities grouped by section with section
 * and weighing editable, the Moodle sync of the course (progress, last report, last date), the
 * push to Moodle, the platform's Moodle connection and the import of courses from Moodle.
 */
export default function ActivityPage() {
  const decl = resourceByKey('activity')!;
  const { t } = useTranslation();
  const theme = useTheme();
  const gridLocale = (
    theme.components as { MuiDataGrid?: { defaultProps?: { localeText?: object } } } | undefined
  )?.MuiDataGrid?.defaultProps?.localeText;
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { role } = useSession();
  const canWrite = Boolean(role && decl.write.includes(role));
  const [course, setCourse] = useCurrentCourse();
  const [section, setSection] = useState<number | null | 'all'>('all');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Row | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  // An activity marked unseen whose removal staff are asked to confirm.
  const [removing, setRemoving] = useState<Row | null>(null);
  const { params: page, grid, firstPage } = useServerPage(10);
  const sections = useSectionGroups(course?.id);
  const filters = {
    course_id: course?.id,
    section_id: section === 'all' || section === null ? undefined : section,
  };
  const list = useResourceList(
    decl,
    { ...page, search: search || undefined },
    filters,
    Boolean(course),
  );
  const edit = useMemo(() => editDecl(decl), [decl]);
  const yesNo = statusLabels(t);
  const onSearch = useCallback(
    (s: string) => {
      setSearch(s);
      firstPage();
    },
    [firstPage],
  );
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['resource', 'activities'] }),
    [queryClient],
  );

  const columns = useMemo<GridColDef<Row>[]>(() => {
    const cols: GridColDef<Row>[] = COLUMNS.map((name) =>
      decl.fields.find((f) => f.name === name)!,
    ).map((f) => ({
      field: f.prop,
      headerName: t(`fields.${f.label}`),
      flex: f.name === 'description' ? 2 : 1,
      minWidth: 110,
      sortable: Boolean(f.sortable),
      valueGetter: (_v, row) =>
        f.name === 'type' && row.type
          ? activityTypeLabel(t, String(row.type))
          : displayValue(f, row, yesNo),
    }));
    // What Moodle says of the activity, and whether it counts toward progress.
    cols.push({
      field: 'moodleState',
      headerName: t('moodle.activityState.column'),
      flex: 1,
      minWidth: 150,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack
          direction="row"
          spacing={0.5}
          sx={{ alignItems: 'center', height: '100%', flexWrap: 'wrap' }}
        >
          {row.removedAt ? (
            <Chip
              size="small"
              color="error"
              variant="outlined"
              label={t('moodle.activityState.removed')}
            />
          ) : null}
          {row.hidden ? (
            <Chip size="small" variant="outlined" label={t('moodle.activityState.hidden')} />
          ) : null}
          {row.unseenAt && !row.removedAt ? (
            <Tooltip title={t('moodle.activityState.unseenHint')}>
              <Chip
                size="small"
                color="warning"
                variant="outlined"
                label={t('moodle.activityState.unseen')}
                data-testid="activity-unseen"
              />
            </Tooltip>
          ) : null}
          {row.excludedFromProgress ? (
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label={t('moodle.activityState.excluded')}
            />
          ) : null}
        </Stack>
      ),
    });
    if (canWrite) {
      cols.push({
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 90,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="edit"
            icon={<EditIcon />}
            label={t('common.edit')}
            onClick={() => setEditing(row)}
          />,
          <GridActionsCellItem
            key="progress"
            showInMenu
            label={t(
              row.excludedFromProgress
                ? 'moodle.activityState.include'
                : 'moodle.activityState.exclude',
            )}
            onClick={() => void toggleExcluded(row)}
          />,
          ...(row.unseenAt && !row.removedAt
            ? [
                <GridActionsCellItem
                  key="removal"
                  showInMenu
                  label={t('moodle.activityState.confirmRemoval')}
                  onClick={() => setRemoving(row)}
                />,
              ]
            : []),
        ],
      });
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read state when clicked
  }, [decl, canWrite, t]);
  // On a phone the name, the section and the actions stay; the column menu shows the others.
  const fit = useFitColumns(columns, {
    remember: 'activities',
    hideFirst: ['idActivityMoodle', 'type', 'moodleState', 'weighing', 'section'],
  });

  const toggleExcluded = async (row: Row) => {
    try {
      const res = await setActivityExcluded(Number(row.id), !row.excludedFromProgress);
      notify(res.message || t('common.success'));
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  };

  const confirmRemoval = async () => {
    if (!removing) return;
    try {
      const res = await confirmActivityRemoval(Number(removing.id));
      setRemoving(null);
      notify(res.message || t('common.success'));
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  };

  const save = async (body: Record<string, unknown>) => {
    if (!editing) return;
    try {
      const res = await saveResource(decl, editing.id, body);
      setEditing(null);
      notify(res.message || t('common.success'));
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
      throw err;
    }
  };

  const title = t('resources.activity.title');
  const totalWeighing = (sections.data ?? []).reduce((s, g) => s + g.weighing, 0);
  return (
    <PageCard
      title={title}
      icon={<ViewListIcon />}
      actions={
        canWrite && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button
              variant="outlined"
              startIcon={<SettingsEthernetIcon />}
              onClick={() => setSettingsOpen(true)}
            >
              {t('moodle.settings.button')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<CloudDownloadIcon />}
              onClick={() => setImportOpen(true)}
            >
              {t('moodle.import.button')}
            </Button>
          </Stack>
        )
      }
    >
      <CourseSelector
        value={course}
        onChange={(c) => {
          setCourse(c);
          setSection('all');
          firstPage();
        }}
      />
      {!course && (
        <Typography variant="body2" sx={{ mt: 2 }} color="text.secondary">
          {t('course.choose')}
        </Typography>
      )}
      {course && (
        <>
          {/* Its tables (section proposals, weights) scroll inside this frame on a phone rather than widen the page. */}
          {canWrite && (
            <Box sx={{ minWidth: 0, overflowX: 'auto' }}>
              <SyncPanel
                courseId={course.id}
                linked={Boolean(course.idCourseMoodle)}
                onSynced={() => void refresh()}
              />
            </Box>
          )}
          <Stack
            direction="row"
            sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 2 }}
            role="group"
            aria-label={t('moodle.activities.sections')}
          >
            <Chip
              label={t('moodle.activities.allSections', { total: totalWeighing })}
              color={section === 'all' ? 'primary' : 'default'}
              onClick={() => setSection('all')}
            />
            {(sections.data ?? []).map((g) => (
              <Chip
                key={String(g.id)}
                label={t('moodle.activities.sectionChip', {
                  name: g.description,
                  n: g.count,
                  weighing: g.weighing,
                })}
                color={section === g.id ? 'primary' : 'default'}
                disabled={g.id === null}
                onClick={() => {
                  setSection(g.id);
                  firstPage();
                }}
              />
            ))}
            <SearchBox onChange={onSearch} />
          </Stack>
          {list.isError && <Alert severity="error">{t('common.loadError')}</Alert>}
          <ServerDataGrid
            label={title}
            rows={list.data?.rows ?? []}
            total={list.data?.total ?? 0}
            {...fit}
            loading={list.isLoading || list.isFetching}
            {...grid}
            pageSizeOptions={[10, 25, 50, 100]}
            disableRowSelectionOnClick
            localeText={{
              ...gridLocale,
              noRowsLabel: course.idCourseMoodle
                ? t('moodle.activities.empty')
                : t('common.noRows'),
            }}
            sx={{
              mt: 2,
              '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 700, color: 'secondary.main' },
            }}
          />
        </>
      )}
      <ResourceForm
        decl={edit}
        row={editing}
        open={Boolean(editing)}
        onClose={() => setEditing(null)}
        onSave={save}
        header={
          editing && (
            <TextField
              label={t('fields.name')}
              value={String(editing.description ?? '')}
              disabled
            />
          )
        }
      />
      <ConfirmDialog
        open={Boolean(removing)}
        title={t('moodle.activityState.confirmRemovalTitle')}
        message={t('moodle.activityState.confirmRemovalMessage', {
          name: String(removing?.description ?? ''),
        })}
        confirmLabel={t('moodle.activityState.confirmRemoval')}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemoval}
      />
      <MoodleSettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <ImportCourseDialog open={importOpen} onClose={() => setImportOpen(false)} />
    </PageCard>
  );
}

import DeleteIcon from '@mui/icons-material/Delete';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { chileDateTime } from '@sigaf/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CourseSelector } from '../../components/CourseSelector';
import { useCurrentCourse } from '../../lib/rememberedCourse';
import { PageCard } from '../../components/PageCard';
import { SearchBox } from '../../components/SearchBox';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import {
  enrol,
  removeEnrolment,
  searchStudents,
  studentEnrolments,
  updateStudent,
  type EnrolmentProps,
  type StudentProps,
} from './api';
import { StudentForm } from './StudentForm';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { useFitColumns } from '../../components/useFitColumns';
import { useGridLocale } from '../tickets/TicketGrid';

/** Gestión de estudiantes: find a student across courses, edit their data and their enrolments. */
export default function ManageStudentsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { params: page, grid, firstPage } = useServerPage();
  const [open, setOpen] = useState<StudentProps | null>(null);
  const params = { ...page, search: search || undefined };
  const list = useQuery({
    queryKey: ['students', params],
    queryFn: () => searchStudents(params),
    placeholderData: (prev) => prev,
  });
  // Past SEARCH_COUNT_CAP matches the server stops counting: the table says "more than".
  const capped = Boolean(list.data?.capped);
  const counted = useFormat().number(list.data?.total ?? 0);
  const gridLocale = useGridLocale();
  const onSearch = useCallback(
    (s: string) => {
      setSearch(s);
      firstPage();
    },
    [firstPage],
  );
  const columns = useMemo<GridColDef<StudentProps>[]>(
    () => [
      { field: 'rut', headerName: t('students.rut'), width: 140 },
      { field: 'name', headerName: t('students.fields.name'), flex: 1, minWidth: 140 },
      { field: 'lastName', headerName: t('students.fields.last_name'), flex: 1, minWidth: 140 },
      {
        field: 'motherLastName',
        headerName: t('students.fields.mother_last_name'),
        flex: 1,
        minWidth: 140,
        sortable: false,
      },
      { field: 'email', headerName: t('students.fields.email'), flex: 1, minWidth: 200 },
      { field: 'mobile', headerName: t('students.fields.mobile'), width: 140, sortable: false },
    ],
    [t],
  );
  const fit = useFitColumns(columns, {
    remember: 'students',
    hideFirst: ['mobile', 'motherLastName', 'email', 'lastName'],
  });
  return (
    <PageCard
      title={t('students.manageTitle')}
      icon={<ManageAccountsIcon />}
      actions={<SearchBox onChange={onSearch} width={320} />}
    >
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('students.manageHint')}
      </Typography>
      {capped && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('students.moreMatches', { n: counted })}
        </Alert>
      )}
      <ServerDataGrid
        label={t('students.manageTitle')}
        rows={list.data?.rows ?? []}
        total={list.data?.total ?? 0}
        {...fit}
        loading={list.isFetching}
        {...grid}
        localeText={
          capped
            ? {
                ...gridLocale,
                paginationDisplayedRows: ({ from, to }) =>
                  t('students.displayedCapped', { from, to, n: counted }),
              }
            : undefined
        }
        onRowClick={(p) => setOpen(p.row)}
        sx={{ '& .MuiDataGrid-row': { cursor: 'pointer' } }}
      />
      {open && <StudentDialog student={open} onClose={() => setOpen(null)} />}
    </PageCard>
  );
}

function StudentDialog({ student, onClose }: { student: StudentProps; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [course, setCourse] = useCurrentCourse();
  const [removing, setRemoving] = useState<EnrolmentProps | null>(null);
  const [dirty, setDirty] = useState(false);
  const { close, guard } = useDiscardGuard(dirty, onClose);
  const enrolments = useQuery({
    queryKey: ['student-enrolments', student.id],
    queryFn: () => studentEnrolments(student.id),
  });
  const fail = (err: unknown) =>
    notify(err instanceof ApiError ? err.message : t('common.error'), 'error', 8000);
  const reload = () =>
    Promise.all([enrolments.refetch(), queryClient.invalidateQueries({ queryKey: ['students'] })]);

  const save = async (values: Record<string, string>) => {
    try {
      const res = await updateStudent(student.id, values);
      notify(res.message);
      setDirty(false); // saved: closing asks nothing
      void reload(); // the form takes the saved values at once; the lists follow
    } catch (err) {
      fail(err);
      throw err;
    }
  };

  return (
    <Dialog open onClose={close} maxWidth="md" fullWidth aria-labelledby="student-dialog-title">
      <DialogTitle id="student-dialog-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('students.editStudent')}: {student.name} {student.lastName}
      </DialogTitle>
      <DialogContent sx={{ pt: 3 }}>
        <Box sx={{ pt: 2 }}>
          <StudentForm
            student={student}
            submitLabel={t('common.save')}
            onSubmit={save}
            onDirtyChange={setDirty}
          />
        </Box>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mt: 3 }}>
          {t('students.enrolments')}
        </Typography>
        {enrolments.data?.length === 0 && (
          <Alert severity="info">{t('students.noEnrolments')}</Alert>
        )}
        {Boolean(enrolments.data?.length) && (
          <Table size="small" aria-label={t('students.enrolments')}>
            <TableHead>
              <TableRow>
                {['course', 'classroom', 'profile', 'finalStatus', 'lastAccess', 'tickets'].map(
                  (k) => (
                    <TableCell key={k} sx={{ fontWeight: 700, color: 'secondary.main' }}>
                      {t(`students.${k}`)}
                    </TableCell>
                  ),
                )}
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {(enrolments.data ?? []).map((e) => (
                <TableRow key={e.id}>
                  <TableCell>{e.course.description}</TableCell>
                  <TableCell>
                    {e.classroom?.id ? e.classroom.description : t('students.noClassroom')}
                  </TableCell>
                  <TableCell>{e.profile.description}</TableCell>
                  <TableCell>{e.finalStatus?.description ?? '—'}</TableCell>
                  <TableCell>
                    {e.lastAccessText ??
                      (e.lastAccess ? chileDateTime(e.lastAccess) : t('students.never'))}
                  </TableCell>
                  <TableCell>{e.ticketsCount}</TableCell>
                  <TableCell>
                    <Tooltip title={t('students.removeEnrolment')}>
                      <IconButton
                        aria-label={t('students.removeEnrolment')}
                        onClick={() => setRemoving(e)}
                        size="small"
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
          {t('students.enrolIn')}
        </Typography>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: { md: 'center' } }}
        >
          <CourseSelector value={course} onChange={setCourse} />
          <Button
            variant="outlined"
            disabled={!course}
            onClick={async () => {
              try {
                await enrol(course!.id, student.id);
                notify(t('students.enrolled', { course: course!.description }));
                await reload();
              } catch (err) {
                fail(err);
              }
            }}
          >
            {t('students.enrol')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.close')}</Button>
      </DialogActions>
      {guard}
      <ConfirmDialog
        open={Boolean(removing)}
        message={t('students.removeConfirm', {
          name: `${student.name} ${student.lastName}`,
          course: removing?.course.description ?? '',
        })}
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          try {
            const res = await removeEnrolment(removing!.id);
            notify(res.message);
            await reload();
          } catch (err) {
            fail(err);
          } finally {
            setRemoving(null);
          }
        }}
      />
    </Dialog>
  );
}

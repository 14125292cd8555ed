import type { ImportRowResult } from '@sigaf/contract';
import { normalizeRut } from '@sigaf/contract';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  IconButton,
  InputAdornment,
  LinearProgress,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CourseSelector } from '../../components/CourseSelector';
import { useCurrentCourse } from '../../lib/rememberedCourse';
import { PageCard } from '../../components/PageCard';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { exportTable } from '../../lib/export';
import {
  downloadTemplate,
  enrol,
  findByRut,
  importStudents,
  saveStudent,
  type ImportResult,
  type StudentProps,
} from './api';
import { StudentForm } from './StudentForm';
import { importConfirmation } from './importText';

/** The rejected rows of a review as a CSV: row number, RUT and name as the file had them, and why. */
function downloadRejected(rows: ImportRowResult[], t: (k: string) => string) {
  const rejected = rows
    .filter((r) => r.rejected)
    .map((r) => [r.row, r.rutInFile, r.name, r.reasons.join('; ')]);
  return exportTable(
    'csv',
    t('students.rejectedFile'),
    [t('students.row'), t('students.rut'), t('fields.name'), t('students.reasons')],
    rejected,
  );
}

function outcome(r: ImportRowResult, t: (k: string) => string) {
  if (r.rejected) return t('students.status.rejected');
  return `${t(`students.status.${r.student}`)}, ${t(`students.status.${r.enrolment}`)}`;
}

/** Matrícula: bulk upload with a preview of every row, and single enrolment by RUT. */
export default function LoadStudentsPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={4}>
      <BulkUpload />
      <SingleEnrolment />
    </Stack>
  );
  function BulkUpload() {
    const notify = useNotify();
    const [course, setCourse] = useCurrentCourse();
    const [file, setFile] = useState<File | null>(null);
    const [result, setResult] = useState<ImportResult | null>(null);
    const [busy, setBusy] = useState<string | null>(null);
    const [error, setError] = useState<string | null>(null);
    const [onlyRejected, setOnlyRejected] = useState(false);
    const [confirming, setConfirming] = useState(false);

    const run = async (confirm: boolean) => {
      if (!course) return setError(t('students.noCourse'));
      if (!file) return setError(t('students.noFile'));
      setError(null);
      setBusy(confirm ? t('students.importing') : t('students.reviewing'));
      try {
        const res = await importStudents(file, course.id, confirm);
        setResult(res._data);
        if (confirm) notify(res.message);
      } catch (err) {
        setResult(null);
        setError(err instanceof ApiError ? err.message : t('common.error'));
      } finally {
        setBusy(null);
      }
    };

    const columns = useMemo<GridColDef<ImportRowResult>[]>(
      () => [
        { field: 'row', headerName: t('students.row'), width: 80 },
        // A rejected row shows what the file had.
        {
          field: 'rut',
          headerName: t('students.rut'),
          width: 140,
          valueGetter: (_v, r) => r.rut ?? r.rutInFile,
        },
        { field: 'name', headerName: t('fields.name'), flex: 1, minWidth: 180 },
        {
          field: 'result',
          headerName: t('students.result'),
          width: 260,
          valueGetter: (_v, r) => outcome(r, t),
          renderCell: (p) => (
            <Chip
              size="small"
              color={p.row.rejected ? 'error' : p.row.student === 'new' ? 'success' : 'default'}
              label={p.value as string}
            />
          ),
        },
        {
          field: 'reasons',
          headerName: t('students.reasons'),
          flex: 1,
          minWidth: 200,
          valueGetter: (_v, r) => [...r.reasons, ...(r.notes ?? [])].join('; '),
        },
      ],
      [],
    );
    const rows = (result?.rows ?? []).filter((r) => !onlyRejected || r.rejected);
    const s = result?.summary;
    return (
      <PageCard
        title={t('students.bulkTitle')}
        icon={<CloudUploadIcon />}
        actions={
          <Stack direction="row" spacing={1}>
            <Button startIcon={<FileDownloadIcon />} onClick={() => void downloadTemplate('xlsx')}>
              {t('students.template')} (.xlsx)
            </Button>
            <Button startIcon={<FileDownloadIcon />} onClick={() => void downloadTemplate('csv')}>
              (.csv)
            </Button>
          </Stack>
        }
      >
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('students.bulkHint')}
        </Typography>
        <Stack spacing={2}>
          <CourseSelector
            value={course}
            onChange={(c) => {
              setCourse(c);
              setResult(null);
            }}
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" startIcon={<CloudUploadIcon />}>
              {t('students.chooseFile')}
              <input
                hidden
                type="file"
                aria-label={t('students.file')}
                accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  setResult(null);
                }}
              />
            </Button>
            <Typography variant="body2">
              {file ? `${file.name} (${Math.ceil(file.size / 1024)} KB)` : t('students.noFile')}
            </Typography>
            <Button variant="contained" onClick={() => void run(false)} disabled={Boolean(busy)}>
              {t('students.preview')}
            </Button>
          </Stack>
          {busy && (
            <Box>
              <Typography variant="body2">{busy}</Typography>
              <LinearProgress />
            </Box>
          )}
          {error && <Alert severity="error">{error}</Alert>}
          {s && (
            <Box>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {t('students.previewTitle')}
              </Typography>
              <Stack
                direction="row"
                spacing={1}
                useFlexGap
                sx={{ mb: 1, flexWrap: 'wrap' }}
                aria-label={t('students.previewTitle')}
              >
                {(
                  [
                    'total',
                    'created',
                    'updated',
                    'unchanged',
                    'enrolled',
                    'alreadyEnrolled',
                    'rejected',
                  ] as const
                ).map((k) => (
                  <Chip
                    key={k}
                    label={t(`students.summary.${k}`, { n: s[k] })}
                    color={
                      k === 'rejected' && s.rejected
                        ? 'error'
                        : k === 'created'
                          ? 'success'
                          : 'default'
                    }
                    variant="outlined"
                  />
                ))}
              </Stack>
              {s.encoding === 'windows-1252' && (
                <Alert severity="info" sx={{ mb: 1 }}>
                  {t('students.windows1252')}
                </Alert>
              )}
              <Stack
                direction="row"
                spacing={2}
                useFlexGap
                sx={{ alignItems: 'center', flexWrap: 'wrap' }}
              >
                <FormControlLabel
                  control={
                    <Switch
                      checked={onlyRejected}
                      onChange={(e) => setOnlyRejected(e.target.checked)}
                    />
                  }
                  label={t('students.onlyRejected')}
                />
                {s.rejected > 0 && (
                  <Button
                    startIcon={<FileDownloadIcon />}
                    onClick={() => void downloadRejected(result?.rows ?? [], t)}
                  >
                    {t('students.downloadRejected')}
                  </Button>
                )}
              </Stack>
              <DataGrid
                aria-label={t('students.previewTitle')}
                rows={rows}
                getRowId={(r) => r.row}
                columns={columns}
                autoHeight
                density="compact"
                pageSizeOptions={[10, 25, 100]}
                initialState={{ pagination: { paginationModel: { pageSize: 10 } } }}
                disableRowSelectionOnClick
              />
              {s.applied ? (
                <Alert severity="success" sx={{ mt: 2 }}>
                  {t('students.summary.enrolled', { n: s.enrolled })}
                </Alert>
              ) : (
                <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
                  <Button
                    variant="contained"
                    color="primary"
                    disabled={Boolean(busy) || s.total === s.rejected}
                    onClick={() => setConfirming(true)}
                  >
                    {t('students.confirm')}
                  </Button>
                </Stack>
              )}
            </Box>
          )}
        </Stack>
        <ConfirmDialog
          open={confirming}
          message={importConfirmation(t, {
            valid: (s?.total ?? 0) - (s?.rejected ?? 0),
            rejected: s?.rejected ?? 0,
            course: course?.description ?? '',
          })}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            setConfirming(false);
            await run(true);
          }}
        />
      </PageCard>
    );
  }

  function SingleEnrolment() {
    const notify = useNotify();
    const [course, setCourse] = useCurrentCourse();
    const [rut, setRut] = useState('');
    const [student, setStudent] = useState<StudentProps | null>(null);
    const [state, setState] = useState<'idle' | 'found' | 'new'>('idle');
    const [message, setMessage] = useState<{
      severity: 'error' | 'info' | 'success';
      text: string;
    } | null>(null);

    const search = async () => {
      const normal = normalizeRut(rut);
      if (!normal) return setMessage({ severity: 'error', text: t('students.rutInvalid') });
      setRut(normal);
      try {
        const found = await findByRut(normal);
        setStudent(found.properties);
        setState('found');
        setMessage({
          severity: 'info',
          text: t('students.found', {
            name: `${found.properties.name} ${found.properties.lastName}`,
          }),
        });
      } catch (err) {
        if (err instanceof ApiError && (err.status === 204 || err.status === 404)) {
          setStudent(null);
          setState('new');
          setMessage({ severity: 'info', text: t('students.notFound') });
        } else
          setMessage({
            severity: 'error',
            text: err instanceof ApiError ? err.message : t('common.error'),
          });
      }
    };

    const save = async (values: Record<string, string>) => {
      if (!course) {
        setMessage({ severity: 'error', text: t('students.noCourse') });
        return;
      }
      try {
        const saved = await saveStudent({ ...values, ...(student ? { id: student.id } : {}) });
        await enrol(course.id, saved._data.properties.id);
        notify(t('students.enrolled', { course: course.description }));
        setMessage({
          severity: 'success',
          text: t('students.enrolled', { course: course.description }),
        });
        setState('idle');
        setStudent(null);
        setRut('');
      } catch (err) {
        setMessage({
          severity: 'error',
          text: err instanceof ApiError ? err.message : t('common.error'),
        });
        throw err;
      }
    };

    return (
      <PageCard title={t('students.singleTitle')} icon={<PersonAddIcon />}>
        <Stack spacing={2}>
          <CourseSelector value={course} onChange={setCourse} />
          <TextField
            label={t('students.rut')}
            value={rut}
            onChange={(e) => {
              setRut(e.target.value);
              setState('idle');
            }}
            onKeyDown={(e) => e.key === 'Enter' && void search()}
            helperText={t('students.rutHint')}
            sx={{ maxWidth: 320 }}
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton aria-label={t('students.searchRut')} onClick={() => void search()}>
                      <SearchIcon />
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          {message && <Alert severity={message.severity}>{message.text}</Alert>}
          {state !== 'idle' && (
            <StudentForm
              student={student}
              rut={rut}
              readOnlyRut
              submitLabel={t('students.enrol')}
              onSubmit={save}
            />
          )}
        </Stack>
      </PageCard>
    );
  }
}

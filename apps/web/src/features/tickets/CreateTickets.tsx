import { zodResolver } from '@hookform/resolvers/zod';
import SearchIcon from '@mui/icons-material/Search';
import { normalizeRut, TICKET_MSG } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  FormControlLabel,
  Grid,
  LinearProgress,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../components/SearchBox';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useNotify } from '../../components/Snackbar';
import { WaitingDialog } from '../../components/WaitingDialog';
import { ApiError } from '../../lib/api';
import { useSession } from '../auth/session';
import {
  addAttempt,
  addAttempts,
  createTicket,
  createTickets,
  enrolmentOf,
  studentByRut,
  useCatalogue,
  useCourseStudents,
  type EnrolmentInfo,
  type Ticket,
} from './api';
import { StudentTickets } from './AttemptTimeline';
import { AttemptFields, TicketOptionFields } from './fields';
import { fullName, lastAccess } from './format';
import { gridHeaderSx, selectionProps, useGridLocale } from './TicketGrid';
import { createSchemaFor, OPTION_FIELDS, splitCreateValues, withFirstAttempt, type CreateTicketValues, type FormValues } from './schemas';
import { StudentCard } from './StudentCard';

/** "Individual ＋" and "Masivo ＋" (SCREENS.md §6.2, §6.6): recipients, the six options and the first contact attempt. */

export interface CourseRef {
  id: number;
  description: string;
}

/** The create form, with Estado "Abierto" and the signed-in user as operator chosen beforehand. */
function useCreateForm(): UseFormReturn<FormValues> {
  const { user } = useSession();
  const statuses = useCatalogue('status');
  const form = useForm<FormValues>({
    // The first attempt is validated only when ticked.
    resolver: ((values: FormValues, context: unknown, options: never) => zodResolver(createSchemaFor(values) as never)(values, context, options)) as never,
    defaultValues: { ...Object.fromEntries(OPTION_FIELDS.map((f) => [f, ''])), user_assigned_id: user?.id ?? '', ...withFirstAttempt },
    mode: 'onTouched',
  });
  const openId = statuses.data?.find((s) => s.key === 'open')?.id;
  useEffect(() => {
    if (openId && form.getValues('status_ticket_id') === '') form.setValue('status_ticket_id', openId);
  }, [openId, form]);
  return form;
}

function Heading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, color: 'primary.main', mt: 3, mb: 1.5 }}>
      {children}
    </Typography>
  );
}

function TicketFormFields({ form }: { form: UseFormReturn<FormValues> }) {
  const { t } = useTranslation();
  const disabled = form.formState.isSubmitting;
  const withAttempt = form.watch('with_attempt') === '1';
  return (
    <>
      <Heading>{t('tickets.options.title')}</Heading>
      <TicketOptionFields control={form.control} fields={OPTION_FIELDS} disabled={disabled} />
      <Heading>{t('tickets.attempt.first')}</Heading>
      <Controller
        name="with_attempt"
        control={form.control}
        render={({ field }) => (
          <FormControlLabel
            control={<Checkbox checked={field.value === '1'} disabled={disabled} onChange={(e) => field.onChange(e.target.checked ? '1' : '')} />}
            label={t('tickets.attempt.withFirst')}
          />
        )}
      />
      {withAttempt ? <AttemptFields control={form.control} disabled={disabled} /> : <Alert severity="info">{t('tickets.attempt.withoutFirst')}</Alert>}
    </>
  );
}

interface ShellProps {
  title: string;
  steps: [string, string];
  step: number;
  onStep: (step: number) => void;
  /** Step 1 → 2 ("Continuar"); a step may refuse by returning false. */
  onContinue?: () => boolean;
  canContinue?: boolean;
  /** The form "Guardar" / "Generar tickets" submits on step 2. */
  formId: string;
  submitLabel: string;
  busy: boolean;
  saving: boolean;
  /** The second step has errors: its label turns red. */
  invalid?: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** The two-step creation dialog: title bar, stepper, "Cancelar", "Continuar" or "Atrás" + submit. */
function Shell({ title, steps, step, onStep, onContinue, canContinue = true, formId, submitLabel, busy, saving, invalid, onClose, children }: ShellProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('md'));
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="lg" fullScreen={fullScreen} aria-labelledby="create-ticket-title">
      <Box sx={{ px: 3, py: 1.5, bgcolor: 'primary.main', color: 'white' }}>
        <Typography id="create-ticket-title" variant="h6" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </Box>
      {busy ? <LinearProgress /> : <Box sx={{ height: 4 }} />}
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 3, maxWidth: 480 }}>
          {steps.map((s, i) => (
            <Step key={s}>
              <StepLabel error={i === 1 && invalid}>{s}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {children}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={saving}>
          {t('common.cancelSentence')}
        </Button>
        {step === 0 ? (
          <Button variant="contained" disabled={!canContinue} onClick={() => (onContinue?.() ?? true) && onStep(1)}>
            {t('tickets.form.continue')}
          </Button>
        ) : (
          <>
            <Button onClick={() => onStep(0)} disabled={saving}>
              {t('tickets.form.back')}
            </Button>
            <Button type="submit" form={formId} variant="contained" disabled={saving}>
              {submitLabel}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

const errorText = (err: unknown, fallback: string) => (err instanceof ApiError ? err.message : fallback);

/** What a failed save leaves: field errors on the form, the server's message in the snackbar. */
function useFailure(form: UseFormReturn<FormValues>) {
  const notify = useNotify();
  const { t } = useTranslation();
  return (err: unknown) => {
    if (err instanceof ApiError) for (const [f, m] of Object.entries(err.fieldErrors)) if (f in form.getValues()) form.setError(f, { message: m[0] });
    notify(errorText(err, t('common.error')), 'error', 8000);
  };
}

// ---------------------------------------------------------------------------------------------

/** One student, found by RUT in any spelling, must be enrolled in the course. */
export function CreateSingleDialog({ course, onClose }: { course: CourseRef; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const form = useCreateForm();
  const failed = useFailure(form);
  const [step, setStep] = useState(0);
  const [rut, setRut] = useState('');
  const [searching, setSearching] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<EnrolmentInfo | null>(null);

  const search = async (e: FormEvent) => {
    e.preventDefault();
    const normal = normalizeRut(rut);
    setEnrolment(null);
    if (!normal) {
      setProblem(t('tickets.single.invalidRut'));
      return;
    }
    setRut(normal);
    setSearching(true);
    setProblem(null);
    try {
      const student = await studentByRut(normal).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) throw new Error(t('tickets.single.notRegistered'));
        if (err instanceof ApiError && err.status === 406) throw new Error(t('tickets.single.invalidRut'));
        throw err;
      });
      const found = await enrolmentOf(student.properties.id, course.id).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) throw new Error(t('tickets.single.notEnrolled'));
        throw err;
      });
      setEnrolment(found.properties);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : t('common.error'));
    } finally {
      setSearching(false);
    }
  };

  const save = form.handleSubmit(
    async (values) => {
      if (!enrolment) return;
      const { options, attempt } = splitCreateValues(values as unknown as CreateTicketValues);
      let ticket: Ticket;
      try {
        ticket = (await createTicket(enrolment.id, options))._data.properties;
      } catch (err) {
        failed(err);
        return;
      }
      try {
        if (attempt) await addAttempt(ticket.id, attempt);
        notify(TICKET_MSG.created);
      } catch (err) {
        notify(t('tickets.single.attemptFailed', { code: ticket.ticketCode, message: errorText(err, t('common.error')) }), 'error', 10_000);
      }
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      onClose();
    },
    () => notify(t('tickets.form.incomplete'), 'warning'),
  );

  const busy = searching || form.formState.isSubmitting;
  return (
    <Shell
      title={t('tickets.single.title')}
      steps={[t('tickets.single.stepRecipient'), t('tickets.single.stepTicket')]}
      step={step}
      onStep={setStep}
      canContinue={Boolean(enrolment)}
      formId="single-ticket-form"
      submitLabel={t('common.save')}
      busy={busy}
      saving={form.formState.isSubmitting}
      invalid={Object.keys(form.formState.errors).length > 0}
      onClose={onClose}
    >
      {step === 0 && (
        <>
          <Box component="form" onSubmit={search} noValidate sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', maxWidth: 520 }}>
            <TextField
              autoFocus
              label={t('tickets.single.rut')}
              placeholder="12.345.678-9"
              value={rut}
              onChange={(e) => setRut(e.target.value)}
              helperText={t('tickets.single.rutHint', { course: course.description })}
              slotProps={{ htmlInput: { maxLength: 14 } }}
            />
            <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={searching || rut.trim() === ''} sx={{ mt: 0.25, flexShrink: 0 }}>
              {t('common.search')}
            </Button>
          </Box>
          {problem && (
            <Alert severity="warning" sx={{ mt: 2, maxWidth: 520 }}>
              {problem}
            </Alert>
          )}
          {enrolment && (
            <Grid container spacing={3} sx={{ mt: 1 }}>
              <Grid size={{ xs: 12, md: 5 }}>
                <Heading>{t('tickets.student.title')}</Heading>
                <StudentCard enrolment={enrolment} onEdited={(s) => setEnrolment({ ...enrolment, registeredUser: { ...enrolment.registeredUser, ...s } })} />
              </Grid>
              <Grid size={{ xs: 12, md: 7 }}>
                <Heading>{t('tickets.history.all')}</Heading>
                <StudentTickets enrolmentId={enrolment.id} />
              </Grid>
            </Grid>
          )}
        </>
      )}
      {step === 1 && enrolment && (
        <Box component="form" id="single-ticket-form" onSubmit={save} noValidate>
          <Chip color="primary" variant="outlined" label={`${fullName(enrolment.registeredUser).toUpperCase()} · ${enrolment.registeredUser.rut}`} />
          <TicketFormFields form={form} />
        </Box>
      )}
    </Shell>
  );
}

// ---------------------------------------------------------------------------------------------

/** Many students of the course at once: one ticket each, with the same first attempt. */
export function CreateMassiveDialog({ course, onClose, initialSelection }: { course: CourseRef; onClose: () => void; /** Students chosen beforehand (e.g. in Seguimiento): the dialog opens on the ticket step. */ initialSelection?: number[] }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const gridLocale = useGridLocale();
  const form = useCreateForm();
  const failed = useFailure(form);
  const [step, setStep] = useState(initialSelection?.length ? 1 : 0);
  const [search, setSearch] = useState('');
  const { params, grid, firstPage } = useServerPage(10);
  const [selected, setSelected] = useState<number[]>(initialSelection ?? []);
  const [needOne, setNeedOne] = useState(false);
  const [generating, setGenerating] = useState(false);
  const students = useCourseStudents(course.id, params.page, params.perPage, search);
  const onSearch = useCallback(
    (s: string) => {
      setSearch(s);
      firstPage();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const columns = useMemo<GridColDef<EnrolmentInfo>[]>(
    () => [
      { field: 'rut', headerName: t('tickets.columns.rut'), width: 130, valueGetter: (_v, r) => r.registeredUser.rut },
      { field: 'name', headerName: t('tickets.student.name'), flex: 1, minWidth: 130, valueGetter: (_v, r) => r.registeredUser.name },
      { field: 'lastName', headerName: t('tickets.student.lastName'), flex: 1, minWidth: 130, valueGetter: (_v, r) => r.registeredUser.lastName },
      { field: 'motherLastName', headerName: t('tickets.student.motherLastName'), flex: 1, minWidth: 130, valueGetter: (_v, r) => r.registeredUser.motherLastName ?? '' },
      { field: 'classroom', headerName: t('tickets.columns.classroom'), width: 110, valueGetter: (_v, r) => r.classroom?.description || t('tickets.noClassroom') },
      { field: 'lastAccess', headerName: t('tickets.student.lastAccess'), width: 160, valueGetter: (_v, r) => lastAccess(r) ?? t('tickets.student.never') },
    ],
    [t],
  );

  const save = form.handleSubmit(
    async (values) => {
      const { options, attempt } = splitCreateValues(values as unknown as CreateTicketValues);
      setGenerating(true);
      try {
        let created: { message: string; ids: number[] };
        try {
          const res = await createTickets(selected, options);
          created = { message: res.message, ids: res._data.collections.map((c) => c.properties.id) };
        } catch (err) {
          failed(err);
          return;
        }
        try {
          if (attempt) await addAttempts(created.ids, attempt);
          notify(created.message || TICKET_MSG.createdMany(created.ids.length));
        } catch (err) {
          notify(t('tickets.massive.attemptsFailed', { count: created.ids.length, message: errorText(err, t('common.error')) }), 'error', 10_000);
        }
        void queryClient.invalidateQueries({ queryKey: ['tickets'] });
        onClose();
      } finally {
        setGenerating(false);
      }
    },
    () => notify(t('tickets.form.incomplete'), 'warning'),
  );

  const busy = form.formState.isSubmitting;
  return (
    <Shell
      title={t('tickets.massive.title', { course: course.description })}
      steps={[t('tickets.massive.stepRecipients'), t('tickets.massive.stepTicket')]}
      step={step}
      onStep={setStep}
      onContinue={() => {
        setNeedOne(selected.length === 0);
        return selected.length > 0;
      }}
      formId="massive-ticket-form"
      submitLabel={t('tickets.massive.generate')}
      busy={busy}
      saving={busy}
      invalid={Object.keys(form.formState.errors).length > 0}
      onClose={onClose}
    >
      {step === 0 && (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
            <SearchBox onChange={onSearch} width={320} />
            <Typography role="status" sx={{ fontWeight: 600 }}>
              {t('tickets.massive.selected', { count: selected.length })}
            </Typography>
          </Box>
          {needOne && selected.length === 0 && (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {t('tickets.massive.selectOne')}
            </Alert>
          )}
          {students.isError && <Alert severity="error">{errorText(students.error, t('common.loadError'))}</Alert>}
          <ServerDataGrid
            label={t('tickets.massive.stepRecipients')}
            rows={students.data?.rows ?? []}
            total={students.data?.total ?? 0}
            columns={columns}
            loading={students.isFetching}
            {...grid}
            {...selectionProps(selected, setSelected)}
            disableColumnSorting
            localeText={{ ...gridLocale, noRowsLabel: t('tickets.massive.noStudents') }}
            sx={gridHeaderSx}
          />
        </>
      )}
      {step === 1 && (
        <Box component="form" id="massive-ticket-form" onSubmit={save} noValidate>
          <Alert severity="info">{t('tickets.massive.summary', { count: selected.length })}</Alert>
          <TicketFormFields form={form} />
        </Box>
      )}
      <WaitingDialog open={generating} message={t('tickets.massive.generating')} />
    </Shell>
  );
}

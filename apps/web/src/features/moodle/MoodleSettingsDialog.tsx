import { zodResolver } from '@hookform/resolvers/zod';
import { moodleSettingsSchema } from '@sigaf/contract';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormDialogActions } from '../../components/FormDialogActions';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { PasswordField } from '../../components/PasswordField';
import {
  saveMoodleSettings,
  testMoodleConnection,
  useMoodleSettings,
  usePlatforms,
  type ConnectionReport,
} from './api';
import {
  capabilityReasonKey,
  capabilityStateKey,
  capabilityUseKey,
  connectionSeverity,
  hiddenActivitiesUnconfirmed,
  missingCapabilities,
} from './capabilities';
import { useDiscardGuard } from '../../components/useDiscardGuard';

type Values = z.input<typeof moodleSettingsSchema>;

const STATE_ICONS = {
  ok: <CheckCircleIcon fontSize="small" color="success" />,
  missing: <WarningAmberIcon fontSize="small" color="warning" />,
  unchecked: <HelpOutlineIcon fontSize="small" color="disabled" />,
} as const;

/** A capability's name with line-break opportunities after its "/" and ":" (moodle/course:<wbr>viewparticipants). */
const breakable = (name: string) =>
  name.split(/(?<=[/:])/).flatMap((part, i) => (i ? [<wbr key={i} />, part] : [part]));

/** Each capability the sync needs: its Moodle name, what SIGAF uses it for, and what the test found. */
function CapabilityTable({ report }: { report: ConnectionReport }) {
  const { t } = useTranslation();
  const capabilities = report.capabilities ?? [];
  if (!capabilities.length) return null;
  const missing = missingCapabilities(report);
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('moodle.settings.capabilities.title')}
      </Typography>
      <Typography variant="caption" component="p">
        {report.checkedMoodleCourseId === null
          ? t('moodle.settings.capabilities.noCourse')
          : t('moodle.settings.capabilities.checkedOn', { id: report.checkedMoodleCourseId })}
      </Typography>
      {missing.map((c) => (
        <Typography
          key={c.capability}
          variant="body2"
          sx={{ mt: 0.5, fontWeight: 600 }}
          data-testid="capability-warning"
        >
          {t('moodle.settings.capabilities.missing', {
            capability: c.capability,
            use: t(capabilityUseKey(c.use)),
          })}
        </Typography>
      ))}
      <Table
        size="small"
        aria-label={t('moodle.settings.capabilities.title')}
        sx={{ mt: 0.5, '& td, & th': { px: 0.5, py: 0.25, bgcolor: 'transparent' } }}
        data-testid="capability-table"
      >
        <TableHead>
          <TableRow>
            <TableCell>{t('moodle.settings.capabilities.colState')}</TableCell>
            <TableCell>{t('moodle.settings.capabilities.colCapability')}</TableCell>
            <TableCell>{t('moodle.settings.capabilities.colUse')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {capabilities.map((c) => {
            const state = t(capabilityStateKey(c.state));
            return (
              <TableRow key={c.capability} data-state={c.state}>
                <TableCell>
                  <Tooltip title={state}>
                    <Box
                      component="span"
                      role="img"
                      aria-label={state}
                      sx={{ display: 'inline-flex' }}
                    >
                      {STATE_ICONS[c.state]}
                    </Box>
                  </Tooltip>
                </TableCell>
                <TableCell>
                  <Typography variant="caption" component="code" sx={{ overflowWrap: 'anywhere' }}>
                    {breakable(c.capability)}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Typography variant="caption" component="p">
                    {t(capabilityUseKey(c.use))}
                    {c.kind !== 'sync' && ` (${t(`moodle.settings.capabilities.kind.${c.kind}`)})`}
                  </Typography>
                  <Typography variant="caption" component="p" color="text.secondary">
                    {state}: {t(capabilityReasonKey(c.reason), { detail: c.detail ?? '' })}
                  </Typography>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

/** The connection report: site, version, the web-service functions the token lacks, and its capabilities. */
export function ConnectionResult({ report }: { report: ConnectionReport }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity={connectionSeverity(report)}
      data-testid="connection-result"
      sx={{ '& .MuiAlert-message': { width: '100%' } }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {report.ok
          ? t('moodle.settings.ok')
          : t('moodle.settings.missing', { n: report.missingFunctions.length })}
      </Typography>
      <Typography variant="body2">
        {t('moodle.settings.site', { name: report.siteName })}
      </Typography>
      <Typography variant="body2">
        {t('moodle.settings.version', { release: report.release ?? report.version ?? '—' })}
      </Typography>
      <Typography variant="body2">
        {t('moodle.settings.user', { user: report.username })}
      </Typography>
      {report.missingFunctions.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label={t('moodle.settings.missingList')}>
          {report.missingFunctions.map((f) => (
            <li key={f}>
              <code>{f}</code>
            </li>
          ))}
        </Box>
      )}
      {report.missingOptionalFunctions.length > 0 && (
        <Typography variant="caption" component="p">
          {t('moodle.settings.optionalMissing', {
            list: report.missingOptionalFunctions.join(', '),
          })}
        </Typography>
      )}
      {report.identityWarning && (
        <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }} data-testid="identity-warning">
          {report.identityWarning}
        </Typography>
      )}
      {(hiddenActivitiesUnconfirmed(report) || report.hiddenActivitiesWarning) && (
        <Typography
          variant="body2"
          sx={{ mt: 1, fontWeight: 600 }}
          data-testid="hidden-activities-warning"
        >
          {hiddenActivitiesUnconfirmed(report)
            ? t('moodle.settings.hiddenUnconfirmed')
            : report.hiddenActivitiesWarning}
        </Typography>
      )}
      <CapabilityTable report={report} />
    </Alert>
  );
}

/** Moodle connection of a platform: URL, token (write-only) and "Probar conexión". */
export function MoodleSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const platforms = usePlatforms();
  const [platformId, setPlatformId] = useState<number | ''>('');
  const settings = useMoodleSettings(open ? platformId : '');
  const [report, setReport] = useState<ConnectionReport | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const { control, handleSubmit, reset, getValues, setError, trigger, formState } = useForm<Values>(
    {
      resolver: zodResolver(moodleSettingsSchema),
      mode: 'onTouched',
      defaultValues: { url: '', token: '' },
    },
  );

  useEffect(() => {
    if (open && platformId === '' && platforms.data?.length) setPlatformId(platforms.data[0]!.id);
  }, [open, platformId, platforms.data]);
  // A new platform (or reopening) starts blank; its settings, when they arrive or are fetched
  // again, fill only what the user has not typed: a late answer must not wipe a typed token.
  useEffect(() => {
    if (open) reset({ url: '', token: '' });
    setReport(null);
    setTestError(null);
  }, [open, platformId, reset]);
  useEffect(() => {
    if (open && settings.data)
      reset({ url: settings.data.url ?? '', token: '' }, { keepDirtyValues: true });
  }, [open, settings.data, reset]);
  const loading = platformId === '' || settings.isPending;

  const hasToken = Boolean(settings.data?.hasToken);
  const clean = (v: Values) => ({ url: v.url, token: v.token ? v.token : undefined });

  const submit = handleSubmit(async (values) => {
    if (platformId === '') return;
    if (!values.token && !hasToken) {
      setError('token', { message: t('moodle.settings.tokenRequired') });
      return;
    }
    try {
      const res = await saveMoodleSettings(platformId, clean(values));
      notify(res.message);
      await queryClient.invalidateQueries({ queryKey: ['moodle-settings', platformId] });
      onClose();
    } catch (err) {
      if (err instanceof ApiError)
        for (const [name, msgs] of Object.entries(err.fieldErrors))
          setError(name as keyof Values, { message: msgs[0] });
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  });

  const test = async () => {
    if (platformId === '' || !(await trigger('url'))) return;
    setTesting(true);
    setReport(null);
    setTestError(null);
    try {
      const res = await testMoodleConnection(platformId, clean(getValues()));
      setReport(res._data);
    } catch (err) {
      setTestError(err instanceof ApiError ? err.message : t('common.error'));
    } finally {
      setTesting(false);
    }
  };

  const busy = formState.isSubmitting || testing;
  const { close, guard } = useDiscardGuard(open && formState.isDirty, onClose);
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="moodle-settings-title"
    >
      <DialogTitle id="moodle-settings-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('moodle.settings.title')}
      </DialogTitle>
      {(busy || settings.isFetching) && <LinearProgress />}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label={t('moodle.settings.platform')}
              value={platformId}
              onChange={(e) => setPlatformId(Number(e.target.value))}
              disabled={platforms.isLoading}
            >
              {(platforms.data ?? []).map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.description}
                </MenuItem>
              ))}
            </TextField>
            <Controller
              name="url"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={t('moodle.settings.url')}
                  placeholder="https://campus.ejemplo.cl"
                  required
                  disabled={loading}
                  error={Boolean(fieldState.error)}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <Controller
              name="token"
              control={control}
              render={({ field, fieldState }) => (
                <PasswordField
                  {...field}
                  value={field.value ?? ''}
                  label={t('moodle.settings.token')}
                  autoComplete="off"
                  required={!hasToken}
                  disabled={loading}
                  error={Boolean(fieldState.error)}
                  helperText={
                    fieldState.error?.message ??
                    (hasToken ? t('moodle.settings.tokenKept') : t('moodle.settings.tokenHint'))
                  }
                />
              )}
            />
            <Box>
              <Button variant="outlined" onClick={() => void test()} disabled={busy || loading}>
                {t('moodle.settings.test')}
              </Button>
            </Box>
            {testError && (
              <Alert severity="error" data-testid="connection-error">
                {testError}
              </Alert>
            )}
            {report && <ConnectionResult report={report} />}
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={close} busy={formState.isSubmitting} />
      </form>
      {guard}
    </Dialog>
  );
}

import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import SyncIcon from '@mui/icons-material/Sync';
import {
  chileDateTime,
  type MoodlePushRequest,
  type MoodlePushResult,
  type MoodleSyncActivity,
  type MoodleSyncIssue,
  type MoodleSyncRefused,
  type MoodleSyncResult,
} from '@sigaf/contract';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { isActive, startPush, startSync, usePushStatus, useSyncStatus } from './api';
import { SectionProposals } from './SectionProposals';

function JobProgress({
  progress,
  label,
}: {
  progress: { done: number; total: number; message: string } | null;
  label: string;
}) {
  const { t } = useTranslation();
  const determinate = Boolean(progress && progress.total > 0);
  const value = determinate ? Math.round((progress!.done / progress!.total) * 100) : undefined;
  return (
    <Box sx={{ my: 1 }}>
      <LinearProgress
        variant={determinate ? 'determinate' : 'indeterminate'}
        value={value}
        aria-label={label}
        data-testid="sync-progress"
      />
      <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="sync-progress-text">
        {progress?.message ?? t('moodle.sync.queued')}
        {determinate ? ` — ${progress!.done}/${progress!.total}` : ''}
      </Typography>
    </Box>
  );
}

/** A folded list of named entries of a report: the title with the count, then one line each. */
function NamedList({
  title,
  lines,
}: {
  title: string;
  lines: Array<{ key: string; text: string }>;
}) {
  if (!lines.length) return null;
  return (
    <Accordion disableGutters variant="outlined">
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography variant="body2">
          {title} ({lines.length})
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <Box component="ul" sx={{ m: 0, pl: 2, maxHeight: 220, overflow: 'auto' }}>
          {lines.map((l) => (
            <li key={l.key}>
              <Typography variant="body2">{l.text}</Typography>
            </li>
          ))}
        </Box>
      </AccordionDetails>
    </Accordion>
  );
}

const withDetail = (text: string, detail?: string | null) =>
  detail ? `${text} — ${detail}` : text;

function IssueList({ title, items }: { title: string; items: MoodleSyncIssue[] }) {
  return (
    <NamedList
      title={title}
      lines={items.map((i) => ({
        key: `${i.source}-${i.id}`,
        text: withDetail(`${i.rut ?? '—'} · ${i.name}`, i.detail),
      }))}
    />
  );
}

function ActivityList({ title, items }: { title: string; items: MoodleSyncActivity[] }) {
  return (
    <NamedList
      title={title}
      lines={items.map((a) => ({ key: String(a.cmid), text: withDetail(a.name, a.detail) }))}
    />
  );
}

/** Values Moodle sent out of range: who or what, the field, the value, why. */
function RefusedList({ title, items }: { title: string; items: MoodleSyncRefused[] }) {
  const text = (r: MoodleSyncRefused) =>
    withDetail(
      `${[r.student, r.activity].filter(Boolean).join(' · ')} · ${r.field} = ${r.value}`,
      r.detail,
    );
  return (
    <NamedList title={title} lines={items.map((r, i) => ({ key: String(i), text: text(r) }))} />
  );
}

function Errors({ title, items }: { title: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <Alert severity="warning" sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2 }}>
        {items.slice(0, 20).map((e) => (
          <li key={e}>{e}</li>
        ))}
      </Box>
    </Alert>
  );
}

export function SyncReport({ result }: { result: MoodleSyncResult }) {
  const { t } = useTranslation();
  const figures: Array<[string, number]> = [
    ['found', result.found],
    ['invalidRuts', result.invalidRuts.length],
    ['missingInMoodle', result.missingInMoodle.length],
    ['missingLocally', result.missingLocally.length],
    ['activitiesAdded', result.activitiesAdded],
    ['activitiesRemoved', result.activitiesRemoved ?? 0],
    ['hiddenActivities', result.hiddenActivities?.length ?? 0],
    ['unseenActivities', result.unseenActivities?.length ?? 0],
    ['suspended', result.suspended ?? 0],
    ['refused', result.refused?.length ?? 0],
    ['errors', result.errors.length],
  ];
  return (
    <Box data-testid="sync-report" sx={{ mt: 1 }}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }}>
        {figures.map(([key, n]) => (
          <Chip
            key={key}
            label={`${t(`moodle.report.${key}`)}: ${n}`}
            color={
              key === 'found'
                ? 'success'
                : n > 0 && key !== 'activitiesAdded'
                  ? 'warning'
                  : 'default'
            }
            variant="outlined"
          />
        ))}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t('moodle.report.moodleCalls', { count: result.moodleCalls })}
      </Typography>
      <IssueList title={t('moodle.report.invalidRuts')} items={result.invalidRuts} />
      <IssueList title={t('moodle.report.missingInMoodle')} items={result.missingInMoodle} />
      <IssueList title={t('moodle.report.missingLocally')} items={result.missingLocally} />
      <IssueList title={t('moodle.report.identityHidden')} items={result.identityHidden ?? []} />
      <ActivityList
        title={t('moodle.report.activitiesRemoved')}
        items={result.removedActivities ?? []}
      />
      <ActivityList
        title={t('moodle.report.hiddenActivities')}
        items={result.hiddenActivities ?? []}
      />
      <ActivityList
        title={t('moodle.report.unseenActivities')}
        items={result.unseenActivities ?? []}
      />
      <IssueList title={t('moodle.report.suspended')} items={result.suspendedStudents ?? []} />
      <RefusedList title={t('moodle.report.refused')} items={result.refused ?? []} />
      <Errors title={t('moodle.report.errors')} items={result.errors} />
    </Box>
  );
}

function PushReport({ result }: { result: MoodlePushResult }) {
  const { t } = useTranslation();
  const figures: Array<[string, number]> = [
    ['usersCreated', result.usersCreated],
    ['usersLinked', result.usersLinked],
    ['enrolled', result.enrolled],
    ['alreadyEnrolled', result.alreadyEnrolled],
    ['groupsCreated', result.groupsCreated],
    ['membersAdded', result.membersAdded],
  ];
  return (
    <Box data-testid="push-report" sx={{ mt: 1 }}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }}>
        {figures.map(([key, n]) => (
          <Chip key={key} label={`${t(`moodle.push.report.${key}`)}: ${n}`} variant="outlined" />
        ))}
      </Stack>
      <IssueList title={t('moodle.push.report.skipped')} items={result.skipped} />
      <IssueList title={t('moodle.push.report.notReenrolled')} items={result.notReenrolled ?? []} />
      <Errors title={t('moodle.report.errors')} items={result.errors} />
    </Box>
  );
}

/** "Sincronizar" (Moodle → SIGAF) and "Enviar a Moodle" (SIGAF → Moodle) of one course, with progress and last result. */
export function SyncPanel({
  courseId,
  linked,
  onSynced,
}: {
  courseId: number;
  linked: boolean;
  onSynced: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const status = useSyncStatus(courseId);
  const push = usePushStatus(courseId);
  const [confirmSync, setConfirmSync] = useState(false);
  const [pushOpen, setPushOpen] = useState(false);
  const [options, setOptions] = useState<MoodlePushRequest>({
    createUsers: true,
    enrol: true,
    groups: true,
    reenrol: false,
  });
  const [sending, setSending] = useState(false);
  const syncing = isActive(status.data?.state);
  const pushing = isActive(push.data?.state);

  // When a sync ends, the activities (and everything else read from Moodle) are fresh.
  const previous = useRef(status.data?.state);
  useEffect(() => {
    const before = previous.current;
    previous.current = status.data?.state;
    if (isActive(before) && status.data && !isActive(status.data.state)) {
      if (status.data.state === 'done') notify(t('moodle.sync.done'));
      else notify(status.data.error ?? t('moodle.sync.failed'), 'error', 8000);
      onSynced();
    }
  }, [status.data, notify, onSynced, t]);
  const previousPush = useRef(push.data?.state);
  useEffect(() => {
    const before = previousPush.current;
    previousPush.current = push.data?.state;
    if (isActive(before) && push.data && !isActive(push.data.state)) {
      if (push.data.state === 'done') notify(t('moodle.push.done'));
      else notify(push.data.error ?? t('moodle.push.failed'), 'error', 8000);
    }
  }, [push.data, notify, t]);

  const sync = async () => {
    try {
      const res = await startSync(courseId);
      notify(res.message, res._data.created ? 'success' : 'info');
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error', 8000);
    } finally {
      setConfirmSync(false);
      await queryClient.invalidateQueries({ queryKey: ['moodle-sync-status', courseId] });
    }
  };

  const sendPush = async () => {
    setSending(true);
    try {
      const res = await startPush(courseId, options);
      notify(res.message, res._data.created ? 'success' : 'info');
      setPushOpen(false);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error', 8000);
    } finally {
      setSending(false);
      await queryClient.invalidateQueries({ queryKey: ['moodle-push-status', courseId] });
    }
  };

  const last = chileDateTime(status.data?.lastSyncAt);
  const data = status.data;
  return (
    <Box sx={{ my: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' } }}
      >
        <Button
          variant="contained"
          startIcon={<SyncIcon />}
          disabled={!linked || syncing || status.isLoading}
          onClick={() => setConfirmSync(true)}
        >
          {syncing ? t('moodle.sync.running') : t('moodle.sync.button')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<CloudUploadIcon />}
          disabled={!linked || pushing}
          onClick={() => setPushOpen(true)}
        >
          {pushing ? t('moodle.push.running') : t('moodle.push.button')}
        </Button>
        <Typography variant="body2" data-testid="last-sync">
          {last ? t('moodle.sync.last', { date: last }) : t('moodle.sync.never')}
        </Typography>
      </Stack>
      {!linked && (
        <Alert severity="info" sx={{ mt: 1 }}>
          {t('moodle.sync.notLinked')}
        </Alert>
      )}
      {status.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {t('common.loadError')}
        </Alert>
      )}
      {syncing && (
        <JobProgress progress={data?.progress ?? null} label={t('moodle.sync.progress')} />
      )}
      {!syncing && data?.state === 'failed' && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="sync-error">
          {t('moodle.sync.lastFailed', { error: data.error ?? '' })}
        </Alert>
      )}
      {data?.result && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="subtitle2">
            {t('moodle.report.title', { date: chileDateTime(data.result.finishedAt) })}
          </Typography>
          <SyncReport result={data.result} />
        </Box>
      )}
      {linked && !syncing && <SectionProposals courseId={courseId} />}
      {pushing && (
        <JobProgress progress={push.data?.progress ?? null} label={t('moodle.push.progress')} />
      )}
      {!pushing && push.data?.state === 'failed' && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {t('moodle.push.lastFailed', { error: push.data.error ?? '' })}
        </Alert>
      )}
      {!pushing && push.data?.result && (
        <Box sx={{ mt: 1 }}>
          <Typography variant="subtitle2">
            {t('moodle.push.reportTitle', { date: chileDateTime(push.data.result.finishedAt) })}
          </Typography>
          <PushReport result={push.data.result} />
        </Box>
      )}
      <ConfirmDialog
        open={confirmSync}
        message={t('moodle.sync.confirm')}
        onCancel={() => setConfirmSync(false)}
        onConfirm={sync}
      />
      <Dialog
        open={pushOpen}
        onClose={sending ? undefined : () => setPushOpen(false)}
        maxWidth="sm"
        fullWidth
        aria-labelledby="moodle-push-title"
      >
        <DialogTitle id="moodle-push-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
          {t('moodle.push.title')}
        </DialogTitle>
        {sending && <LinearProgress />}
        <DialogContent>
          <Alert severity="warning" sx={{ my: 1 }}>
            {t('moodle.push.warning')}
          </Alert>
          <FormGroup>
            {(['createUsers', 'enrol', 'groups', 'reenrol'] as const).map((k) => (
              <FormControlLabel
                key={k}
                control={
                  <Checkbox
                    checked={options[k]}
                    onChange={(e) => setOptions((o) => ({ ...o, [k]: e.target.checked }))}
                  />
                }
                label={t(`moodle.push.options.${k}`)}
              />
            ))}
          </FormGroup>
          {!options.createUsers && !options.enrol && !options.groups && (
            <Alert severity="error">{t('moodle.push.nothing')}</Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPushOpen(false)} disabled={sending}>
            {t('common.cancel')}
          </Button>
          <Button
            variant="contained"
            onClick={() => void sendPush()}
            disabled={sending || (!options.createUsers && !options.enrol && !options.groups)}
          >
            {t('common.accept')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

import AccountTreeIcon from '@mui/icons-material/AccountTree';
import DeleteIcon from '@mui/icons-material/Delete';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { SectionProposals as Proposals } from '@sigaf/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import {
  applySectionProposals,
  deleteSectionMap,
  saveSectionMap,
  useSectionProposals,
} from './api';

const message = (err: unknown, fallback: string) =>
  err instanceof ApiError ? err.message : fallback;

/**
 * The sections proposed for the course's synchronised activities (from Moodle's section and
 * activity names), accepted all at once with "Aplicar propuestas", and the course's mapping of
 * Moodle sections to SIGAF sections ("Secciones de Moodle"), which later syncs apply by themselves.
 */
export function SectionProposals({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const proposals = useSectionProposals(courseId);
  const [applying, setApplying] = useState(false);
  const [mapping, setMapping] = useState(false);
  const data = proposals.data;
  if (!data) return null;

  const apply = async () => {
    setApplying(true);
    try {
      notify((await applySectionProposals(courseId)).message);
      await queryClient.invalidateQueries({ queryKey: ['resource', 'activities'] });
    } catch (err) {
      notify(message(err, t('common.error')), 'error', 8000);
    } finally {
      setApplying(false);
    }
  };

  const pending = data.proposals;
  const weights = data.weights;
  return (
    <Box sx={{ mt: 2 }}>
      {(pending.length > 0 || weights.length > 0) && (
        <Box
          data-testid="section-proposals"
          component="section"
          aria-label={t('moodle.sections.title')}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}
        >
          <Typography
            variant="subtitle1"
            component="h2"
            sx={{ fontWeight: 700, color: 'primary.main' }}
          >
            {t('moodle.sections.title')}
          </Typography>
          {pending.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('moodle.sections.hint', { count: pending.length })}
            </Typography>
          )}
          {applying && <LinearProgress />}
          {pending.length > 0 && (
            <Table size="small" aria-label={t('moodle.sections.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('moodle.sections.activity')}</TableCell>
                  <TableCell>{t('moodle.sections.moodleSection')}</TableCell>
                  <TableCell>{t('moodle.sections.current')}</TableCell>
                  <TableCell>{t('moodle.sections.proposed')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {pending.map((p) => (
                  <TableRow key={p.activityId}>
                    <TableCell>{p.description}</TableCell>
                    <TableCell>
                      {p.moodleSection ?? '—'}
                      {p.mapsMoodleSection && (
                        <Chip
                          size="small"
                          variant="outlined"
                          label={t('moodle.sections.willMap')}
                          sx={{ ml: 1 }}
                        />
                      )}
                    </TableCell>
                    <TableCell>{p.current?.description ?? t('moodle.sections.none')}</TableCell>
                    <TableCell>
                      <Chip size="small" color="primary" label={p.proposed.description} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {weights.length > 0 && <WeightTable weights={weights} />}
          <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
            <Button
              variant="contained"
              startIcon={<DoneAllIcon />}
              onClick={() => void apply()}
              disabled={applying}
            >
              {t('moodle.sections.apply')}
            </Button>
            <Button
              startIcon={<AccountTreeIcon />}
              onClick={() => setMapping(true)}
              disabled={applying}
            >
              {t('moodle.sections.maps')}
            </Button>
          </Stack>
        </Box>
      )}
      {pending.length === 0 &&
        weights.length === 0 &&
        (data.maps.length > 0 || data.moodleSections.length > 0) && (
          <Button startIcon={<AccountTreeIcon />} onClick={() => setMapping(true)}>
            {t('moodle.sections.mapsCount', { count: data.maps.length })}
          </Button>
        )}
      {mapping && (
        <SectionMapsDialog courseId={courseId} data={data} onClose={() => setMapping(false)} />
      )}
    </Box>
  );
}

/** The weights proposed for a course nobody has weighted: equal within each Moodle section, 100 in all. */
function WeightTable({ weights }: { weights: Proposals['weights'] }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Box data-testid="weight-proposals" sx={{ mt: 2 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('moodle.sections.weightsHint', { count: weights.length })}
      </Typography>
      <Table size="small" aria-label={t('moodle.sections.weights')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('moodle.sections.activity')}</TableCell>
            <TableCell>{t('moodle.sections.moodleSection')}</TableCell>
            <TableCell align="right">{t('moodle.sections.weight')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {weights.map((w) => (
            <TableRow key={w.activityId}>
              <TableCell>{w.description}</TableCell>
              <TableCell>{w.moodleSection ?? '—'}</TableCell>
              <TableCell align="right">{f.number(w.weighing, 2)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** "Secciones de Moodle": each Moodle section of the course and the SIGAF section its new activities go to. */
function SectionMapsDialog({
  courseId,
  data,
  onClose,
}: {
  courseId: number;
  data: Proposals;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [moodleSection, setMoodleSection] = useState('');
  const [sectionId, setSectionId] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  // A mapping typed but not added yet is asked about before the dialog closes.
  const { close, guard } = useDiscardGuard(
    moodleSection.trim() !== '' || sectionId !== '',
    onClose,
  );

  const run = async (action: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      notify((await action()).message);
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: ['resource', 'activities'] });
      return true;
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.fieldErrors);
      notify(message(err, t('common.error')), 'error', 8000);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    if (await run(() => saveSectionMap(courseId, moodleSection, Number(sectionId)))) {
      setMoodleSection('');
      setSectionId('');
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : close}
      maxWidth="md"
      fullWidth
      aria-labelledby="section-maps-title"
    >
      <DialogTitle id="section-maps-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('moodle.sections.maps')}
      </DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent>
        <Alert severity="info" sx={{ my: 2 }}>
          {t('moodle.sections.mapsHint')}
        </Alert>
        {data.maps.length === 0 ? (
          <Typography color="text.secondary">{t('moodle.sections.noMaps')}</Typography>
        ) : (
          <Table size="small" aria-label={t('moodle.sections.maps')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('moodle.sections.moodleSection')}</TableCell>
                <TableCell>{t('moodle.sections.sigafSection')}</TableCell>
                <TableCell align="right">{t('moodle.sections.activities')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.maps.map((m) => (
                <TableRow key={m.id}>
                  <TableCell>{m.moodleSection}</TableCell>
                  <TableCell>{m.section.description}</TableCell>
                  <TableCell align="right">{m.activities}</TableCell>
                  <TableCell align="right">
                    <IconButton
                      aria-label={t('moodle.sections.remove', { name: m.moodleSection })}
                      onClick={() => void run(() => deleteSectionMap(courseId, m.id))}
                      disabled={busy}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ mt: 3, alignItems: 'flex-start' }}
        >
          <Autocomplete
            freeSolo
            options={data.moodleSections}
            inputValue={moodleSection}
            onInputChange={(_e, v) => setMoodleSection(v)}
            sx={{ flex: 1 }}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('moodle.sections.moodleSection')}
                error={Boolean(errors.moodle_section)}
                helperText={errors.moodle_section?.[0]}
              />
            )}
          />
          <TextField
            select
            label={t('moodle.sections.sigafSection')}
            value={sectionId}
            onChange={(e) => setSectionId(Number(e.target.value))}
            error={Boolean(errors.section_id)}
            helperText={errors.section_id?.[0]}
            sx={{ minWidth: 220 }}
          >
            {data.sections.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.description}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="contained"
            onClick={() => void save()}
            disabled={busy || !moodleSection.trim() || sectionId === ''}
            sx={{ mt: 1 }}
          >
            {t('moodle.sections.saveMap')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {t('common.close')}
        </Button>
      </DialogActions>
      {guard}
    </Dialog>
  );
}

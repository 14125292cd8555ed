import BookmarkIcon from '@mui/icons-material/Bookmark';
import DeleteIcon from '@mui/icons-material/Delete';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import SaveIcon from '@mui/icons-material/Save';
import SearchIcon from '@mui/icons-material/Search';
import TuneIcon from '@mui/icons-material/Tune';
import { isAdminLike, TICKET_STATUS_FILTERS, type TicketStatusFilter } from '@sigaf/contract';
import {
  Badge,
  Button,
  Collapse,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Grid,
  IconButton,
  InputAdornment,
  LinearProgress,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DayField } from '../../components/DayField';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import {
  deletePreset,
  savePreset,
  useCatalogue,
  useOperators,
  usePresets,
  type CatalogueName,
  type FilterPreset,
  type TicketFilterValues,
} from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { useCatalogueText } from '../../lib/catalogue';

/** The list filters (sent to the server), with the less used ones folded away, and saved presets. */

type IdFilter =
  | 'priority_ticket_id'
  | 'type_ticket_id'
  | 'motive_ticket_id'
  | 'source_ticket_id'
  | 'classroom_id';
const ID_FILTERS: Array<[IdFilter, CatalogueName, string]> = [
  ['priority_ticket_id', 'priority', 'tickets.options.priority'],
  ['type_ticket_id', 'type', 'tickets.options.type'],
  ['motive_ticket_id', 'motive', 'tickets.options.motive'],
  ['source_ticket_id', 'source', 'tickets.options.source'],
  ['classroom_id', 'classroom', 'tickets.filters.classroom'],
];
/** Shown before "Más filtros". */
const FIRST_ROW = 2;

const STATUS_LABEL: Record<TicketStatusFilter, string> = {
  open: 'tickets.filters.open',
  closed: 'tickets.filters.closed',
  all: 'tickets.filters.all',
};

export const emptyFilters = (status: TicketStatusFilter): TicketFilterValues => ({ status });

/** How many filters differ from the default (for the badge). */
const activeCount = (f: TicketFilterValues) =>
  Object.entries(f).filter(
    ([k, v]) => k !== 'status' && k !== 'search' && v !== undefined && v !== '',
  ).length;

function IdSelect({
  name,
  catalogue,
  label,
  value,
  onChange,
}: {
  name: IdFilter;
  catalogue: CatalogueName;
  label: string;
  value?: number;
  onChange: (v?: number) => void;
}) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const { data = [] } = useCatalogue(catalogue);
  return (
    <TextField
      select
      label={t(label)}
      value={data.length ? (value ?? '') : ''}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      name={name}
    >
      <MenuItem value="">
        <em>{t('tickets.filters.any')}</em>
      </MenuItem>
      {data.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {cat(o.description)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function TicketFiltersBar({
  value,
  onChange,
  defaultStatus,
}: {
  value: TicketFilterValues;
  onChange: (f: TicketFilterValues) => void;
  defaultStatus: TicketStatusFilter;
}) {
  const { t } = useTranslation();
  // Operators only ever see their own tickets: no operator filter for them.
  const byOperator = isAdminLike(useSession().role);
  const operators = useOperators();
  const [more, setMore] = useState(activeCount(value) > 0);
  const [text, setText] = useState(value.search ?? '');
  const set = (patch: Partial<TicketFilterValues>) => onChange({ ...value, ...patch });

  // Keep the box in step when a preset or "Limpiar" changes the search from outside.
  useEffect(() => setText(value.search ?? ''), [value.search]);
  useEffect(() => {
    const next = text.trim() || undefined;
    if (next === value.search) return;
    const timer = setTimeout(() => onChange({ ...value, search: next }), 350);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);

  const dateField = (key: 'from' | 'to') => (
    <DayField
      label={t(`tickets.filters.${key}`)}
      value={value[key] ?? ''}
      onChange={(day) => set({ [key]: day || undefined })}
      max={key === 'from' ? value.to : undefined}
      min={key === 'to' ? value.from : undefined}
    />
  );
  const idField = ([name, catalogue, label]: (typeof ID_FILTERS)[number]) => (
    <Grid key={name} size={{ xs: 12, sm: 6, md: 2 }}>
      <IdSelect
        name={name}
        catalogue={catalogue}
        label={label}
        value={value[name]}
        onChange={(v) => set({ [name]: v })}
      />
    </Grid>
  );
  const hidden = activeCount(value);

  return (
    <>
      <Grid container spacing={1.5} sx={{ alignItems: 'center' }}>
        <Grid size={{ xs: 12, md: 3 }}>
          <TextField
            label={t('tickets.filters.search')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) =>
              e.key === 'Enter' && onChange({ ...value, search: text.trim() || undefined })
            }
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 2 }}>
          <TextField
            select
            label={t('tickets.filters.status')}
            value={value.status}
            onChange={(e) => set({ status: e.target.value as TicketStatusFilter })}
          >
            {TICKET_STATUS_FILTERS.map((s) => (
              <MenuItem key={s} value={s}>
                {t(STATUS_LABEL[s])}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        {ID_FILTERS.slice(0, FIRST_ROW).map(idField)}
        <Grid
          size={{ xs: 12, md: 3 }}
          sx={{ display: 'flex', gap: 0.5, justifyContent: { md: 'flex-end' } }}
        >
          <Button
            onClick={() => setMore((m) => !m)}
            startIcon={
              <Badge color="secondary" badgeContent={more ? 0 : hidden}>
                <TuneIcon />
              </Badge>
            }
            aria-expanded={more}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {t(more ? 'tickets.filters.less' : 'tickets.filters.more')}
          </Button>
          <Tooltip title={t('tickets.filters.clear')}>
            <IconButton
              aria-label={t('tickets.filters.clear')}
              onClick={() => onChange(emptyFilters(defaultStatus))}
            >
              <FilterAltOffIcon />
            </IconButton>
          </Tooltip>
        </Grid>
      </Grid>
      <Collapse in={more}>
        <Grid container spacing={1.5} sx={{ mt: 0.5 }}>
          {ID_FILTERS.slice(FIRST_ROW).map(idField)}
          {byOperator && (
            <Grid size={{ xs: 12, sm: 6, md: 2 }}>
              <TextField
                select
                label={t('tickets.options.operator')}
                value={operators.data?.length ? (value.user_assigned_id ?? '') : ''}
                onChange={(e) =>
                  set({
                    user_assigned_id: e.target.value === '' ? undefined : Number(e.target.value),
                  })
                }
              >
                <MenuItem value="">
                  <em>{t('tickets.filters.any')}</em>
                </MenuItem>
                {(operators.data ?? []).map((o) => (
                  <MenuItem key={o.id} value={o.id}>
                    {o.name}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          )}
          <Grid size={{ xs: 6, md: 2 }}>{dateField('from')}</Grid>
          <Grid size={{ xs: 6, md: 2 }}>{dateField('to')}</Grid>
        </Grid>
      </Collapse>
    </>
  );
}

/** "Filtros guardados": apply, save the current filters under a name, delete (each user's own). */
export function PresetsMenu({
  filters,
  onApply,
}: {
  filters: TicketFilterValues;
  onApply: (f: TicketFilterValues) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const presets = usePresets();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<FilterPreset | null>(null);
  // A typed filter name is not dropped without asking.
  const namingGuard = useDiscardGuard(naming && name.trim() !== '', () => setNaming(false));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tickets', 'presets'] });

  const save = async () => {
    setSaving(true);
    setNameError(null);
    try {
      const res = await savePreset(name, filters);
      notify(res.message);
      setNaming(false);
      setName('');
      await refresh();
    } catch (err) {
      const msg =
        err instanceof ApiError ? (err.fieldErrors.name?.[0] ?? err.message) : t('common.error');
      setNameError(msg);
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    if (!removing) return;
    try {
      notify((await deletePreset(removing.id)).message);
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setRemoving(null);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<BookmarkIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
      >
        {t('tickets.presets.button')}
      </Button>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { dense: true, sx: { minWidth: 260 } } }}
      >
        {(presets.data ?? []).length === 0 && (
          <MenuItem disabled>
            <Typography variant="body2">{t('tickets.presets.empty')}</Typography>
          </MenuItem>
        )}
        {(presets.data ?? []).map((p) => (
          <MenuItem
            key={p.id}
            onClick={() => {
              setAnchor(null);
              onApply({ status: 'open', ...p.filters } as TicketFilterValues);
              notify(t('tickets.presets.applied', { name: p.name }), 'info');
            }}
          >
            <ListItemText>{p.name}</ListItemText>
            <IconButton
              size="small"
              edge="end"
              aria-label={t('tickets.presets.delete', { name: p.name })}
              onClick={(e) => {
                e.stopPropagation();
                setAnchor(null);
                setRemoving(p);
              }}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setNaming(true);
          }}
        >
          <ListItemIcon>
            <SaveIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('tickets.presets.save')}</ListItemText>
        </MenuItem>
      </Menu>
      <Dialog
        open={naming}
        onClose={saving ? undefined : namingGuard.close}
        fullWidth
        maxWidth="xs"
        aria-labelledby="preset-title"
      >
        <DialogTitle id="preset-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
          {t('tickets.presets.saveTitle')}
        </DialogTitle>
        {saving && <LinearProgress />}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            e.stopPropagation();
            void save();
          }}
          noValidate
        >
          <DialogContent>
            <TextField
              autoFocus
              label={t('tickets.presets.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              error={Boolean(nameError)}
              helperText={nameError ?? t('tickets.presets.nameHint')}
              slotProps={{ htmlInput: { maxLength: 60 } }}
              sx={{ mt: 1 }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={namingGuard.close} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={saving}>
              {t('common.accept')}
            </Button>
          </DialogActions>
        </form>
        {namingGuard.guard}
      </Dialog>
      <ConfirmDialog
        open={Boolean(removing)}
        message={t('tickets.presets.deleteConfirm', { name: removing?.name ?? '' })}
        onCancel={() => setRemoving(null)}
        onConfirm={remove}
      />
    </>
  );
}

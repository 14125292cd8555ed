import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import DeleteIcon from '@mui/icons-material/Delete';
import LockIcon from '@mui/icons-material/Lock';
import MailIcon from '@mui/icons-material/Mail';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { SendMailDialog } from '../mail';
import { bulkTickets, deleteTickets, useOperators, type Operator, type Refused } from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';

type Pending = 'close' | 'assign' | 'delete' | 'mail' | null;

/**
 * Close, assign or delete the selected tickets, each after a confirmation; what the server refused is
 * listed with its reason (the list outlives the selection, which is cleared once the action is done).
 */
export function BulkActions({
  ids,
  codeOf,
  canDelete,
  onDone,
  onClear,
}: {
  ids: number[];
  codeOf: (id: number) => string;
  canDelete: boolean;
  onDone: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const operators = useOperators();
  const [pending, setPending] = useState<Pending>(null);
  const [operator, setOperator] = useState<Operator | null>(null);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<Refused[]>([]);
  // An operator chosen for the reassignment is not dropped without asking.
  const assign = useDiscardGuard(pending === 'assign' && operator !== null, () => setPending(null));

  const run = async (call: () => Promise<{ message: string; _data: { refused: Refused[] } }>) => {
    setBusy(true);
    try {
      const res = await call();
      notify(
        res.message,
        res._data.refused.length ? 'warning' : 'success',
        res._data.refused.length ? 8000 : undefined,
      );
      setRefused(res._data.refused);
      onDone();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setBusy(false);
      setPending(null);
      setOperator(null);
    }
  };

  const count = ids.length;
  return (
    <>
      {count > 0 && (
        <Paper
          variant="outlined"
          role="toolbar"
          aria-label={t('tickets.bulk.toolbar')}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            flexWrap: 'wrap',
            px: 2,
            py: 1,
            mb: 1,
            bgcolor: 'rgba(0,108,141,0.06)',
            borderColor: 'primary.light',
          }}
        >
          <Typography sx={{ fontWeight: 600, mr: 1 }}>
            {t('tickets.bulk.selected', { count })}
          </Typography>
          <Button
            size="small"
            variant="contained"
            startIcon={<LockIcon />}
            onClick={() => setPending('close')}
          >
            {t('tickets.bulk.close')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            startIcon={<MailIcon />}
            onClick={() => setPending('mail')}
          >
            {t('mail.send.massive')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            startIcon={<AssignmentIndIcon />}
            onClick={() => setPending('assign')}
          >
            {t('tickets.bulk.assign')}
          </Button>
          {canDelete && (
            <Button
              size="small"
              variant="outlined"
              color="error"
              startIcon={<DeleteIcon />}
              onClick={() => setPending('delete')}
            >
              {t('tickets.bulk.delete')}
            </Button>
          )}
          <Box sx={{ flex: 1 }} />
          <Button size="small" onClick={onClear}>
            {t('tickets.bulk.clear')}
          </Button>
        </Paper>
      )}

      <ConfirmDialog
        open={pending === 'close'}
        message={t('tickets.bulk.closeConfirm', { count })}
        onCancel={() => setPending(null)}
        onConfirm={() => run(() => bulkTickets(ids, { action: 'close' }))}
      />
      <ConfirmDialog
        open={pending === 'delete'}
        message={t('tickets.bulk.deleteConfirm', { count })}
        onCancel={() => setPending(null)}
        onConfirm={() => run(() => deleteTickets(ids))}
      />
      <Dialog
        open={pending === 'assign'}
        onClose={busy ? undefined : assign.close}
        fullWidth
        maxWidth="xs"
        aria-labelledby="assign-title"
      >
        <DialogTitle id="assign-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
          {t('tickets.bulk.assignTitle')}
        </DialogTitle>
        {busy && <LinearProgress />}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (operator)
              void run(() => bulkTickets(ids, { action: 'assign', user_assigned_id: operator.id }));
          }}
        >
          <DialogContent>
            <Typography sx={{ mb: 2 }}>{t('tickets.bulk.assignText', { count })}</Typography>
            <Autocomplete
              options={operators.data ?? []}
              loading={operators.isLoading}
              value={operator}
              onChange={(_, o) => setOperator(o)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              noOptionsText={t('tickets.noOptions')}
              renderInput={(params) => (
                <TextField {...params} autoFocus label={t('tickets.options.operator')} required />
              )}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={assign.close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={busy || !operator}>
              {t('tickets.bulk.assignAction')}
            </Button>
          </DialogActions>
        </form>
        {assign.guard}
      </Dialog>
      <RefusedDialog refused={refused} codeOf={codeOf} onClose={() => setRefused([])} />
      {pending === 'mail' && (
        <SendMailDialog
          ticketIds={ids}
          recipient={t('mail.send.recipients', { count: ids.length })}
          onClose={() => {
            setPending(null);
            onDone();
          }}
        />
      )}
    </>
  );
}

/** Which tickets were not processed, and why (the server's reason). */
export function RefusedDialog({
  refused,
  codeOf,
  onClose,
}: {
  refused: Refused[];
  codeOf: (id: number) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={refused.length > 0}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="refused-title"
    >
      <DialogTitle id="refused-title">{t('tickets.bulk.refusedTitle')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('tickets.bulk.refusedText', { count: refused.length })}
        </Alert>
        <List dense>
          {refused.map((r) => (
            <ListItem key={r.id} divider>
              <ListItemText primary={codeOf(r.id)} secondary={r.reason} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

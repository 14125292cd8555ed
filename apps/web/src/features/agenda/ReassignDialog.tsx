import type { AgendaReassignResult, AgendaWorkload } from '@sigaf/contract';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Skeleton,
  Stack,
  TextField,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, getData } from '../../lib/api';
import { useStaff } from '../reminders/api';
import { useReassign } from './api';

/** Tickets sent in one reassignment (the API's limit). */
const REASSIGN_MAX = 500;

/**
 * Reassigns an operator's open tickets (with their pending reminders) to another operator: says
 * how many before anything moves; the server keeps it so that it can be undone.
 */
export function ReassignDialog({
  from,
  onClose,
  onDone,
}: {
  from: AgendaWorkload;
  onClose: () => void;
  onDone: (result: AgendaReassignResult) => void;
}) {
  const { t } = useTranslation();
  const staff = useStaff(true);
  const reassign = useReassign();
  const [to, setTo] = useState<number | ''>('');
  const open = useQuery({
    queryKey: ['agenda', 'reassign', 'open', from.userId],
    queryFn: async () =>
      (
        await getData<{ collections: Array<{ properties: { id: number } }> }>(
          `/api/v2/tickets/operator/${from.userId}`,
          { query: { status: 'open', compact: true } },
        )
      ).collections
        .map((c) => c.properties.id)
        .slice(0, REASSIGN_MAX),
  });
  const ids = open.data ?? [];
  const target = staff.data?.find((s) => s.id === to);
  const confirm = async () => {
    if (to === '') return;
    const res = await reassign.mutateAsync({
      from_user_id: from.userId,
      to_user_id: to,
      ticket_ids: ids,
    });
    onDone(res._data);
  };
  const error = reassign.error ?? open.error;
  return (
    <Dialog
      open
      onClose={reassign.isPending ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby="agenda-reassign-title"
    >
      <DialogTitle id="agenda-reassign-title">
        {t('agenda.actions.reassign', { name: from.name })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{t('agenda.reassignHelp', { name: from.name })}</DialogContentText>
          {error && (
            <Alert severity="error">
              {error instanceof ApiError ? error.message : t('common.error')}
            </Alert>
          )}
          <TextField
            select
            label={t('agenda.reassignTo')}
            value={to}
            onChange={(e) => setTo(Number(e.target.value))}
            fullWidth
          >
            {(staff.data ?? [])
              .filter((s) => s.id !== from.userId)
              .map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
          </TextField>
          {open.isPending ? (
            <Skeleton variant="rounded" height={48} />
          ) : (
            open.isSuccess && (
              <Alert severity={ids.length ? 'info' : 'warning'} data-testid="reassign-ask">
                {ids.length
                  ? t(target ? 'agenda.reassignAsk' : 'agenda.reassignCount', {
                      count: ids.length,
                      from: from.name,
                      to: target?.name,
                    })
                  : t('agenda.reassignNothing', { from: from.name })}
              </Alert>
            )
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={reassign.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void confirm().catch(() => undefined)}
          disabled={to === '' || !ids.length || reassign.isPending}
        >
          {t('agenda.reassignConfirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import HelpOutlineIcon from '@mui/icons-material/Help';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  message: string;
  title?: string;
  /** The two buttons' labels, CANCELAR and ACEPTAR unless told. */
  cancelLabel?: string;
  confirmLabel?: string;
  onCancel: () => void;
  /** May return a promise: the dialog shows progress until it settles. */
  onConfirm: () => unknown;
}

/** 350 px confirmation with CANCELAR / ACEPTAR; ACEPTAR shows progress (docs/development/screens.md#conventions). */
export function ConfirmDialog({
  open,
  message,
  title = 'SIGAF',
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      maxWidth="xs"
      aria-labelledby="confirm-title"
      slotProps={{ paper: { sx: { width: 350 } } }}
    >
      <DialogTitle id="confirm-title" sx={{ bgcolor: 'primary.main', color: 'white', py: 1.5 }}>
        {title}
      </DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', pt: 2 }}>
          <HelpOutlineIcon color="primary" fontSize="large" />
          <Typography>{message}</Typography>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {cancelLabel ?? t('common.cancel')}
        </Button>
        <Button onClick={confirm} variant="contained" disabled={busy} autoFocus>
          {confirmLabel ?? t('common.accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

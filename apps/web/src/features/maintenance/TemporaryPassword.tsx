import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';

export interface TemporarySecret {
  name: string;
  password: string;
}

/** The temporary password, shown once, with a button that copies exactly the password. */
export function TemporaryPasswordNotice({
  secret,
  onCopy,
}: {
  secret: TemporarySecret;
  onCopy: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Alert severity="info">
        {t('users.temporaryPassword', { name: secret.name, password: secret.password })}
      </Alert>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Box
          component="code"
          sx={{ fontSize: '1.25rem', letterSpacing: 1, userSelect: 'all' }}
          aria-label={t('users.temporaryTitle')}
        >
          {secret.password}
        </Box>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={onCopy}>
          {t('users.copyPassword')}
        </Button>
      </Stack>
    </Stack>
  );
}

export function TemporaryPasswordDialog({
  secret,
  onClose,
}: {
  secret: TemporarySecret | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.password);
      notify(t('users.passwordCopied'), 'info');
    } catch {
      // No clipboard (an insecure page or a refused permission): the password stays selectable.
      notify(t('users.copyFailed'), 'warning');
    }
  };
  return (
    <Dialog open={Boolean(secret)} onClose={onClose} aria-labelledby="secret-title">
      <DialogTitle id="secret-title">{t('users.temporaryTitle')}</DialogTitle>
      <DialogContent>
        {secret && <TemporaryPasswordNotice secret={secret} onCopy={() => void copy()} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

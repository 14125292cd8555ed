import { LOGIN_SNACKBAR_MS } from '@sigaf/contract';
import { Button, Snackbar, SnackbarContent } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The login screen's message (a failed sign-in or password change), at the bottom. */
export default function LoginSnack({
  message,
  onClose,
}: {
  message: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Snackbar
      open={Boolean(message)}
      autoHideDuration={LOGIN_SNACKBAR_MS}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <SnackbarContent
        sx={{ bgcolor: 'primary.main' }}
        message={message}
        action={
          <Button color="inherit" size="small" onClick={onClose}>
            {t('auth.close')}
          </Button>
        }
      />
    </Snackbar>
  );
}

import { Alert, Portal, Snackbar } from '@mui/material';
import type { SnackVariant } from './snackVariant';

interface Props {
  message: string;
  variant: SnackVariant;
  duration: number;
  onClose: () => void;
}

/**
 * The shared snackbar's toast. Mounted in a portal when shown, so it stays announced while a
 * dialog is open (an open dialog hides the rest of the page from screen readers).
 */
export default function SnackToast({ message, variant, duration, onClose }: Props) {
  return (
    <Portal>
      <Snackbar
        open
        autoHideDuration={duration}
        onClose={(_, reason) => reason !== 'clickaway' && onClose()}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        // Below the app bar (56 px on a phone, 64 px otherwise), never over its buttons.
        sx={{ top: { xs: 64, sm: 72 } }}
      >
        <Alert
          onClose={onClose}
          severity={variant}
          variant="outlined"
          sx={{ bgcolor: 'background.paper', borderLeftWidth: 10, minWidth: 300 }}
          role="alert"
        >
          {message}
        </Alert>
      </Snackbar>
    </Portal>
  );
}

import { Button, DialogActions } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** CANCELAR / ACEPTAR at the foot of a form dialog; ACEPTAR submits the enclosing form. */
export function FormDialogActions({ onCancel, busy }: { onCancel: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={busy}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" variant="contained" disabled={busy}>
        {t('common.accept')}
      </Button>
    </DialogActions>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema, type NewPasswordInput } from '@sigaf/contract';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../components/PasswordField';

interface Props {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (password: string) => void;
}

/** "Modificar contraseña": the persistent first-login dialog (docs/development/screens.md#login). */
export function FirstLoginDialog({ open, busy, onCancel, onSubmit }: Props) {
  const { t } = useTranslation();
  const { control, handleSubmit, formState } = useForm<NewPasswordInput>({
    resolver: zodResolver(newPasswordSchema) as never,
    mode: 'onTouched',
    defaultValues: { password: '', confirm: '' },
  });
  const submit = handleSubmit((v) => onSubmit(v.password));
  return (
    <Dialog open={open} maxWidth="xs" fullWidth aria-labelledby="first-login-title">
      <DialogTitle id="first-login-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('auth.changeTitle')}
      </DialogTitle>
      <form onSubmit={submit} noValidate>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t('auth.changeHint')}
          </Typography>
          <Stack spacing={2}>
            <Controller
              name="password"
              control={control}
              render={({ field, fieldState }) => (
                <PasswordField
                  {...field}
                  label={t('auth.newPassword')}
                  autoFocus
                  autoComplete="new-password"
                  error={Boolean(fieldState.error)}
                  helperText={fieldState.error?.message}
                />
              )}
            />
            <Controller
              name="confirm"
              control={control}
              render={({ field, fieldState }) => (
                <PasswordField
                  {...field}
                  label={t('auth.confirmPassword')}
                  autoComplete="new-password"
                  error={Boolean(fieldState.error)}
                  helperText={fieldState.error?.message}
                />
              )}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={busy}>
            {t('common.cancelSentence')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || (formState.submitCount > 0 && !formState.isValid)}
          >
            {t('common.accept')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

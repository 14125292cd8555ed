import { zodResolver } from '@hookform/resolvers/zod';
import { resourceBodySchema, type FieldDecl, type ResourceDecl } from '@sigaf/contract';
import {
  Dialog,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { roleLabel } from '../../lib/roles';
import { PasswordField } from '../../components/PasswordField';
import { useOptions, type Row } from './api';
import { initialValues } from './fields';
import { FormDialogActions } from '../../components/FormDialogActions';
import { useDiscardGuard } from '../../components/useDiscardGuard';

function SelectField({
  f,
  control,
  label,
}: {
  f: FieldDecl;
  control: Control<Record<string, unknown>>;
  label: string;
}) {
  const { t } = useTranslation();
  const { data = [], isLoading } = useOptions(f.options);
  return (
    <Controller
      name={f.name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          {...field}
          value={field.value ?? ''}
          label={label}
          required={f.required}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          disabled={isLoading}
        >
          {!f.required && <MenuItem value="">—</MenuItem>}
          {data
            .filter(
              (o) => !o.key || !f.hiddenOptionKeys?.includes(o.key) || o.id === Number(field.value),
            )
            .map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {f.options === 'roles' ? roleLabel(t, o) : o.description}
              </MenuItem>
            ))}
        </TextField>
      )}
    />
  );
}

/**
 * One declared text, number, password or status field. A text with a length limit is never cut
 * silently as it is typed: the hint counts its characters against the limit, and a longer value
 * gets the same Spanish error the server gives.
 */
export function DeclaredField({
  f,
  control,
  label,
  editing,
}: {
  f: FieldDecl;
  control: Control<Record<string, unknown>>;
  label: string;
  editing: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      name={f.name}
      control={control}
      render={({ field, fieldState }) => {
        const limited = f.max !== undefined && f.kind !== 'number' && !f.secret;
        const common = {
          ...field,
          value: field.value ?? '',
          label,
          required: f.required && !(f.secret && editing),
          error: Boolean(fieldState.error),
          helperText:
            fieldState.error?.message ??
            (f.secret && editing
              ? t('users.passwordHint')
              : limited
                ? t('maintenance.length', {
                    n: String(field.value ?? '').length,
                    max: f.max,
                  })
                : undefined),
        };
        if (f.kind === 'password') return <PasswordField {...common} autoComplete="new-password" />;
        if (f.kind === 'status') {
          return (
            <TextField select {...common}>
              <MenuItem value={1}>{t('common.active')}</MenuItem>
              <MenuItem value={0}>{t('common.inactive')}</MenuItem>
            </TextField>
          );
        }
        return (
          <TextField
            {...common}
            type={f.kind === 'number' ? 'number' : f.kind === 'email' ? 'email' : 'text'}
            placeholder={f.kind === 'rut' ? '12.345.678-9' : undefined}
          />
        );
      }}
    />
  );
}

interface Props {
  decl: ResourceDecl;
  row: Row | null;
  open: boolean;
  onClose: () => void;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  /** Shown above the fields (e.g. read-only context of the row being edited). */
  header?: ReactNode;
}

/** The create/edit dialog of a declared resource; validation comes from the same declaration as the server's. */
export function ResourceForm({ decl, row, open, onClose, onSave, header }: Props) {
  const { t } = useTranslation();
  const fields = decl.fields.filter((f) => f.form !== false);
  const { control, handleSubmit, reset, setError, formState } = useForm<Record<string, unknown>>({
    resolver: zodResolver(resourceBodySchema(decl, row ? 'update' : 'create')) as never,
    mode: 'onTouched',
    defaultValues: initialValues(fields, row),
  });
  useEffect(() => {
    if (open) reset(initialValues(fields, row));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset on opening or on another row only
  }, [open, row]);

  const submit = handleSubmit(async (values) => {
    try {
      await onSave(values);
    } catch (err) {
      if (err instanceof ApiError) {
        for (const [name, msgs] of Object.entries(err.fieldErrors))
          setError(name, { message: msgs[0] });
      }
      throw err;
    }
  });

  const { close, guard } = useDiscardGuard(open && formState.isDirty, onClose);
  const title = t(`resources.${decl.key}.${row ? 'edit' : 'create'}`);
  return (
    <Dialog
      open={open}
      onClose={formState.isSubmitting ? undefined : close}
      fullWidth
      maxWidth={fields.length > 3 ? 'sm' : 'xs'}
      aria-labelledby="resource-form-title"
    >
      <DialogTitle id="resource-form-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {title}
      </DialogTitle>
      {formState.isSubmitting && <LinearProgress />}
      <form onSubmit={(e) => void submit(e).catch(() => undefined)} noValidate>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {header}
            {fields.map((f) => {
              const label = t(`fields.${f.label}`);
              if (f.kind === 'select')
                return <SelectField key={f.name} f={f} control={control} label={label} />;
              return (
                <DeclaredField
                  key={f.name}
                  f={f}
                  control={control}
                  label={label}
                  editing={Boolean(row)}
                />
              );
            })}
          </Stack>
        </DialogContent>
        <FormDialogActions onCancel={close} busy={formState.isSubmitting} />
      </form>
      {guard}
    </Dialog>
  );
}

import { Autocomplete, Grid, MenuItem, TextField } from '@mui/material';
import type { KeyboardEvent } from 'react';
import { Controller, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCatalogue, useOperators, type CatalogueName } from './api';
import type { FormValues, OptionField } from './schemas';
import { useCatalogueText } from '../../lib/catalogue';

/** Form fields of the ticket screens (react-hook-form controlled). */

type FieldControl = Control<FormValues>;

const CATALOGUE_OF: Record<Exclude<OptionField, 'user_assigned_id'>, CatalogueName> = {
  source_ticket_id: 'source',
  type_ticket_id: 'type',
  motive_ticket_id: 'motive',
  priority_ticket_id: 'priority',
  status_ticket_id: 'status',
};

const LABEL_OF: Record<OptionField | 'status_detail_ticket_id', string> = {
  source_ticket_id: 'tickets.options.source',
  type_ticket_id: 'tickets.options.type',
  motive_ticket_id: 'tickets.options.motive',
  priority_ticket_id: 'tickets.options.priority',
  user_assigned_id: 'tickets.options.operator',
  status_ticket_id: 'tickets.options.status',
  status_detail_ticket_id: 'tickets.attempt.outcome',
};

interface FieldProps {
  control: FieldControl;
  disabled?: boolean;
  required?: boolean;
}

function CatalogueSelect({
  name,
  catalogue,
  control,
  disabled,
  required = true,
  hint,
}: FieldProps & { name: string; catalogue: CatalogueName; hint?: string }) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const { data = [], isLoading } = useCatalogue(catalogue);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          {...field}
          value={data.length ? (field.value ?? '') : ''}
          label={t(LABEL_OF[name as OptionField])}
          required={required}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? hint}
          disabled={disabled || isLoading}
        >
          {data.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {cat(o.description)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** The operator picker (searchable: the staff list can be long). */
export function OperatorField({
  control,
  disabled,
  required = true,
  name = 'user_assigned_id',
}: FieldProps & { name?: string }) {
  const { t } = useTranslation();
  const { data = [], isLoading } = useOperators();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <Autocomplete
          options={data}
          loading={isLoading}
          disabled={disabled}
          value={data.find((o) => o.id === field.value) ?? null}
          onChange={(_, o) => field.onChange(o ? o.id : '')}
          onBlur={field.onBlur}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={t('tickets.noOptions')}
          renderInput={(params) => (
            <TextField
              {...params}
              inputRef={field.ref}
              label={t(LABEL_OF.user_assigned_id)}
              required={required}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message}
            />
          )}
        />
      )}
    />
  );
}

/** The six ticket options (or the ones listed), two or three per row. */
export function TicketOptionFields({
  control,
  fields,
  disabled,
  operatorRequired = true,
}: FieldProps & { fields: readonly OptionField[]; operatorRequired?: boolean }) {
  const { t } = useTranslation();
  return (
    <Grid container spacing={2}>
      {fields.map((name) => (
        <Grid key={name} size={{ xs: 12, sm: 6, md: 4 }}>
          {name === 'user_assigned_id' ? (
            <OperatorField control={control} disabled={disabled} required={operatorRequired} />
          ) : (
            <CatalogueSelect
              name={name}
              catalogue={CATALOGUE_OF[name]}
              control={control}
              disabled={disabled}
              // The source catalogue mixes a direction (Entrante/Saliente) with media: say what it means here.
              hint={name === 'source_ticket_id' ? t('tickets.options.sourceHint') : undefined}
            />
          )}
        </Grid>
      ))}
    </Grid>
  );
}

/** Enter in the comment submits its form; Shift+Enter starts a new line. */
function submitOnEnter(e: KeyboardEvent<HTMLDivElement>) {
  if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
  const form = (e.target as HTMLTextAreaElement).form;
  if (!form) return;
  e.preventDefault();
  form.requestSubmit();
}

/**
 * "Intento de contacto" (Exitoso / Fallido) and "Observaciones": required together, or both
 * optional (`required={false}`: working a ticket whose status, priority or operator changed).
 */
export function AttemptFields({ control, disabled, required = true }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 4 }}>
        <CatalogueSelect
          name="status_detail_ticket_id"
          catalogue="detail"
          control={control}
          disabled={disabled}
          required={required}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 8 }}>
        <Controller
          name="comment"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              value={field.value ?? ''}
              label={t('tickets.attempt.comment')}
              required={required}
              multiline
              minRows={2}
              maxRows={8}
              disabled={disabled}
              onKeyDown={submitOnEnter}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message ?? t('tickets.attempt.commentHint')}
              slotProps={{ htmlInput: { maxLength: 5000 } }}
            />
          )}
        />
      </Grid>
    </Grid>
  );
}

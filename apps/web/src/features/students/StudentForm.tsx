import { zodResolver } from '@hookform/resolvers/zod';
import { CHILE_REGIONS, studentCreateSchema } from '@sigaf/contract';
import { Button, Grid, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import type { StudentProps } from './api';

const PERSONAL = [
  'name',
  'last_name',
  'mother_last_name',
  'email',
  'phone',
  'mobile',
  'address',
  'city',
  'region',
] as const;
const SCHOOL = [
  'rbd_school',
  'name_school',
  'phone_school',
  'city_school',
  'region_school',
] as const;
const REGION_FIELDS = new Set(['region', 'region_school']);
type FieldName = 'rut' | (typeof PERSONAL)[number] | (typeof SCHOOL)[number];

const PROP: Record<FieldName, keyof StudentProps> = {
  rut: 'rut',
  name: 'name',
  last_name: 'lastName',
  mother_last_name: 'motherLastName',
  email: 'email',
  phone: 'phone',
  mobile: 'mobile',
  address: 'address',
  city: 'city',
  region: 'region',
  rbd_school: 'rbdSchool',
  name_school: 'nameSchool',
  phone_school: 'phoneSchool',
  city_school: 'citySchool',
  region_school: 'regionSchool',
};

export function studentValues(
  s: Partial<StudentProps> | null,
  rut = '',
): Record<FieldName, string> {
  const out = {} as Record<FieldName, string>;
  for (const [k, p] of Object.entries(PROP) as [FieldName, keyof StudentProps][])
    out[k] = s?.[p] == null ? '' : String(s[p]);
  if (!out.rut) out.rut = rut;
  return out;
}

/** The student's personal and school data, validated with the server's own schema. */
export function StudentForm({
  student,
  rut,
  submitLabel,
  onSubmit,
  readOnlyRut,
  onDirtyChange,
}: {
  student: Partial<StudentProps> | null;
  /** Told whether the form holds unsaved changes (a dialog around it asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
  rut?: string;
  submitLabel: string;
  readOnlyRut?: boolean;
  onSubmit: (values: Record<string, string>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { control, handleSubmit, reset, getValues, setError, formState } = useForm<
    Record<string, string>
  >({
    resolver: zodResolver(studentCreateSchema) as never,
    mode: 'onTouched',
    defaultValues: studentValues(student, rut),
  });
  useEffect(() => reset(studentValues(student, rut)), [student, rut, reset]);
  useEffect(() => onDirtyChange?.(formState.isDirty), [formState.isDirty, onDirtyChange]);
  const submit = handleSubmit(async (v) => {
    try {
      await onSubmit(v);
      reset(getValues()); // saved: what the fields hold is the new starting point
    } catch (err) {
      if (err instanceof ApiError)
        for (const [k, m] of Object.entries(err.fieldErrors)) setError(k, { message: m[0] });
    }
  });
  const field = (name: FieldName, required = false) => (
    <Grid key={name} size={{ xs: 12, sm: 6, md: 4 }}>
      <Controller
        name={name}
        control={control}
        render={({ field: f, fieldState }) => (
          <TextField
            {...f}
            select={REGION_FIELDS.has(name)}
            label={name === 'rut' ? t('students.rut') : t(`students.fields.${name}`)}
            required={required}
            disabled={name === 'rut' && readOnlyRut}
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message}
          >
            {REGION_FIELDS.has(name) && [
              <MenuItem key="" value="">
                —
              </MenuItem>,
              ...CHILE_REGIONS.map((r) => (
                <MenuItem key={r} value={r}>
                  {r}
                </MenuItem>
              )),
            ]}
          </TextField>
        )}
      />
    </Grid>
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Typography variant="subtitle2" color="primary" sx={{ mb: 1 }}>
        {t('students.personal')}
      </Typography>
      <Grid container spacing={2}>
        {field('rut', true)}
        {PERSONAL.map((n) => field(n, n === 'name' || n === 'last_name'))}
      </Grid>
      <Typography variant="subtitle2" color="primary" sx={{ mt: 2, mb: 1 }}>
        {t('students.school')}
      </Typography>
      <Grid container spacing={2}>
        {SCHOOL.map((n) => field(n))}
      </Grid>
      <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import EditIcon from '@mui/icons-material/Edit';
import { studentUpdateSchema } from '@sigaf/contract';
import {
  Avatar,
  Box,
  Dialog,
  DialogContent,
  DialogTitle,
  Grid,
  IconButton,
  LinearProgress,
  Paper,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { initials } from '../../lib/initials';
import { EmailLink, TelLink } from '../../components/ContactLinks';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import {
  updateStudentContact,
  type EnrolmentInfo,
  type StudentContact,
  type StudentContactBody,
} from './api';
import { fullName, lastAccess } from './format';
import { FormDialogActions } from '../../components/FormDialogActions';
import { useDiscardGuard } from '../../components/useDiscardGuard';

function Line({ label, value, muted }: { label: string; value: ReactNode; muted?: boolean }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, py: 0.25, minWidth: 0 }}>
      <Typography variant="body2" sx={{ color: 'text.secondary', minWidth: 120, flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography
        variant="body2"
        sx={{
          fontStyle: muted ? 'italic' : undefined,
          color: muted ? 'text.secondary' : undefined,
          overflowWrap: 'anywhere',
        }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/** The student of a ticket: name, RUT, contact data, classroom, last access; optional quick edit. */
export function StudentCard({
  enrolment,
  onEdited,
  phoneLink = (n) => <TelLink number={n} />,
}: {
  enrolment: EnrolmentInfo;
  onEdited?: (s: StudentContact) => void;
  /** How a phone number is shown (a call link; the ticket dialog adds WhatsApp). */
  phoneLink?: (number: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const s = enrolment.registeredUser;
  const name = fullName(s);
  const phone = s.mobile || s.phone;
  const access = lastAccess(enrolment);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      component="section"
      aria-label={t('tickets.student.title')}
    >
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 1 }}>
        <Avatar sx={{ bgcolor: 'secondary.main' }}>{initials(name)}</Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('tickets.student.rut')}: {s.rut}
          </Typography>
        </Box>
        {onEdited && (
          <Tooltip title={t('tickets.student.edit')}>
            <IconButton aria-label={t('tickets.student.edit')} onClick={() => setEditing(true)}>
              <EditIcon />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <Line
        label={t('tickets.student.email')}
        value={s.email ? <EmailLink address={s.email} /> : t('tickets.student.noEmail')}
        muted={!s.email}
      />
      <Line
        label={t('tickets.student.mobile')}
        value={phone ? phoneLink(phone) : t('tickets.student.noPhone')}
        muted={!phone}
      />
      {s.mobile && s.phone && (
        <Line label={t('tickets.student.phone')} value={phoneLink(s.phone)} />
      )}
      <Line
        label={t('tickets.student.classroom')}
        value={enrolment.classroom?.id ? enrolment.classroom.description : t('tickets.noClassroom')}
        muted={!enrolment.classroom?.id}
      />
      <Line
        label={t('tickets.student.lastAccess')}
        value={access || t('tickets.student.never')}
        muted={!access}
      />
      {onEdited && (
        <StudentEditDialog
          open={editing}
          student={s}
          onClose={() => setEditing(false)}
          onSaved={(x) => {
            setEditing(false);
            onEdited(x);
          }}
        />
      )}
    </Paper>
  );
}

const EDIT_FIELDS = [
  ['name', 'tickets.student.name'],
  ['last_name', 'tickets.student.lastName'],
  ['mother_last_name', 'tickets.student.motherLastName'],
  ['email', 'tickets.student.email'],
  ['mobile', 'tickets.student.mobile'],
  ['phone', 'tickets.student.phone'],
] as const;

const editSchema = studentUpdateSchema.pick({
  name: true,
  last_name: true,
  mother_last_name: true,
  email: true,
  mobile: true,
  phone: true,
});

/** Quick edit of the contact data (PUT view-update), with the server's validation and a clear result. */
function StudentEditDialog({
  open,
  student,
  onClose,
  onSaved,
}: {
  open: boolean;
  student: StudentContact;
  onClose: () => void;
  onSaved: (s: StudentContact) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const values = {
    name: student.name,
    last_name: student.lastName,
    mother_last_name: student.motherLastName ?? '',
    email: student.email ?? '',
    mobile: student.mobile ?? '',
    phone: student.phone ?? '',
  };
  const { control, handleSubmit, setError, formState } = useForm<Record<string, string>>({
    resolver: zodResolver(editSchema) as never,
    values,
    mode: 'onTouched',
  });
  const { close, guard } = useDiscardGuard(open && formState.isDirty, onClose);
  const submit = handleSubmit(async (body) => {
    try {
      const res = await updateStudentContact(student.id, body as StudentContactBody);
      notify(res.message || t('common.success'));
      onSaved(res._data.properties);
    } catch (err) {
      if (err instanceof ApiError)
        for (const [f, m] of Object.entries(err.fieldErrors)) setError(f, { message: m[0] });
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  });
  return (
    <Dialog
      open={open}
      onClose={formState.isSubmitting ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="student-edit-title"
    >
      <DialogTitle id="student-edit-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('tickets.student.editTitle')}
      </DialogTitle>
      {formState.isSubmitting && <LinearProgress />}
      {/* A portal still bubbles React events: keep this submit away from an enclosing form. */}
      <form
        onSubmit={(e) => {
          e.stopPropagation();
          void submit(e);
        }}
        noValidate
      >
        <DialogContent>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {EDIT_FIELDS.map(([name, label]) => (
              <Grid key={name} size={{ xs: 12, sm: 6 }}>
                <Controller
                  name={name}
                  control={control}
                  render={({ field, fieldState }) => (
                    <TextField
                      {...field}
                      label={t(label)}
                      required={name === 'name' || name === 'last_name'}
                      error={Boolean(fieldState.error)}
                      helperText={fieldState.error?.message}
                    />
                  )}
                />
              </Grid>
            ))}
          </Grid>
        </DialogContent>
        <FormDialogActions onCancel={close} busy={formState.isSubmitting} />
      </form>
      {guard}
    </Dialog>
  );
}

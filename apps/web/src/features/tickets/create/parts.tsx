import type { AttemptMedium } from '@sigaf/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  LinearProgress,
  Step,
  StepLabel,
  Stepper,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../components/Snackbar';
import { ApiError } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useCatalogue } from '../api';
import { createSchemaFor, OPTION_FIELDS, withFirstAttempt, type FormValues } from '../schemas';
import { useDiscardGuard } from '../../../components/useDiscardGuard';

/** What the creation dialogs share: the form, the stepper shell, headings and failure reporting. */

export interface CourseRef {
  id: number;
  description: string;
}

/** Catalogue values chosen beforehand, by key (e.g. the source of a contact logged from a call). */
export interface CreatePreset {
  source?: string;
  type?: string;
  /** How the contact the first attempt logs was made (a call or WhatsApp message just made): outgoing. */
  medium?: AttemptMedium;
}

/** The create form, with Estado "Abierto", the signed-in user as operator and the preset's values chosen beforehand. */
export function useCreateForm(preset: CreatePreset = {}): UseFormReturn<FormValues> {
  const { user } = useSession();
  const statuses = useCatalogue('status');
  const sources = useCatalogue('source');
  const types = useCatalogue('type');
  const sourceId = preset.source
    ? sources.data?.find((s) => s.key === preset.source)?.id
    : undefined;
  const typeId = preset.type ? types.data?.find((s) => s.key === preset.type)?.id : undefined;
  const form = useForm<FormValues>({
    // The first attempt is validated only when ticked.
    resolver: ((values: FormValues, context: unknown, options: never) =>
      zodResolver(createSchemaFor(values) as never)(values, context, options)) as never,
    defaultValues: {
      ...Object.fromEntries(OPTION_FIELDS.map((f) => [f, ''])),
      user_assigned_id: user?.id ?? '',
      ...withFirstAttempt,
    },
    mode: 'onTouched',
  });
  const openId = statuses.data?.find((s) => s.key === 'open')?.id;
  useEffect(() => {
    if (openId && form.getValues('status_ticket_id') === '')
      form.setValue('status_ticket_id', openId);
  }, [openId, form]);
  useEffect(() => {
    if (sourceId && form.getValues('source_ticket_id') === '')
      form.setValue('source_ticket_id', sourceId);
    if (typeId && form.getValues('type_ticket_id') === '') form.setValue('type_ticket_id', typeId);
  }, [sourceId, typeId, form]);
  return form;
}

export function Heading({ children }: { children: ReactNode }) {
  return (
    <Typography
      variant="subtitle1"
      component="h3"
      sx={{ fontWeight: 700, color: 'primary.main', mt: 3, mb: 1.5 }}
    >
      {children}
    </Typography>
  );
}

export interface ShellProps {
  title: string;
  steps: [string, string];
  step: number;
  onStep: (step: number) => void;
  /** Step 1 → 2 ("Continuar"); a step may refuse by returning false. */
  onContinue?: () => boolean;
  canContinue?: boolean;
  /** The form "Guardar" / "Generar tickets" submits on step 2. */
  formId: string;
  submitLabel: string;
  busy: boolean;
  saving: boolean;
  /** The second step has errors: its label turns red. */
  invalid?: boolean;
  /** Something was typed or chosen: closing asks first. */
  dirty?: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** The two-step creation dialog: title bar, stepper, "Cancelar", "Continuar" or "Atrás" + submit. */
export function Shell({
  title,
  steps,
  step,
  onStep,
  onContinue,
  canContinue = true,
  formId,
  submitLabel,
  busy,
  saving,
  invalid,
  dirty = false,
  onClose,
  children,
}: ShellProps) {
  const { t } = useTranslation();
  const { close, guard } = useDiscardGuard(dirty, onClose);
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('md'));
  return (
    <Dialog
      open
      onClose={busy ? undefined : close}
      fullWidth
      maxWidth="lg"
      fullScreen={fullScreen}
      aria-labelledby="create-ticket-title"
    >
      <Box sx={{ px: 3, py: 1.5, bgcolor: 'primary.main', color: 'white' }}>
        <Typography id="create-ticket-title" variant="h6" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </Box>
      {busy ? <LinearProgress /> : <Box sx={{ height: 4 }} />}
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 3, maxWidth: 480 }}>
          {steps.map((s, i) => (
            <Step key={s}>
              <StepLabel error={i === 1 && invalid}>{s}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {children}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={close} disabled={saving}>
          {t('common.cancelSentence')}
        </Button>
        {step === 0 ? (
          <Button
            variant="contained"
            disabled={!canContinue}
            onClick={() => (onContinue?.() ?? true) && onStep(1)}
          >
            {t('tickets.form.continue')}
          </Button>
        ) : (
          <>
            <Button onClick={() => onStep(0)} disabled={saving}>
              {t('tickets.form.back')}
            </Button>
            <Button type="submit" form={formId} variant="contained" disabled={saving}>
              {submitLabel}
            </Button>
          </>
        )}
      </DialogActions>
      {guard}
    </Dialog>
  );
}

export const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiError ? err.message : fallback;

/** What a failed save leaves: field errors on the form, the server's message in the snackbar. */
export function useFailure(form: UseFormReturn<FormValues>) {
  const notify = useNotify();
  const { t } = useTranslation();
  return (err: unknown) => {
    if (err instanceof ApiError)
      for (const [f, m] of Object.entries(err.fieldErrors))
        if (f in form.getValues()) form.setError(f, { message: m[0] });
    notify(errorText(err, t('common.error')), 'error', 8000);
  };
}

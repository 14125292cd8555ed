import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import {
  chileanMobile,
  fillPlaceholders,
  MAIL_PLACEHOLDERS,
  phoneNumbers,
  whatsAppHref,
  type AttemptMedium,
} from '@sigaf/contract';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TelLink } from '../../components/ContactLinks';
import type { CourseRef } from './create/parts';

/** The student a call or a WhatsApp message goes to, with what the message's placeholders need. */
export interface ContactTarget {
  enrolmentId: number;
  course: CourseRef;
  name: string;
  lastName: string;
  rut: string;
  classroom: string | null;
  ticketCode?: string | null;
}

/** How the student was reached from SIGAF: a call (`tel:` link) or a WhatsApp message. */
export type ContactChannel = 'phone' | 'whatsapp';
/** The attempt's medium for each way SIGAF reaches a student. */
export const CHANNEL_MEDIUM: Record<ContactChannel, AttemptMedium> = {
  phone: 'call',
  whatsapp: 'whatsapp',
};

/**
 * A phone number as a `tel:` link and, for a Chilean mobile, a WhatsApp button that opens
 * `https://wa.me/<E.164>` with a message written from a template (the mail placeholders).
 * `onContact` hears each call or message started. With `logContact` (not for tutors), when the
 * person comes back to SIGAF's tab after the call or the message, SIGAF asks whether to log the
 * contact and, on yes, shows what `logContact` returns (the screen decides how it is logged).
 */
export function PhoneContact({
  number,
  target,
  onContact,
  logContact,
}: {
  number: string;
  target: ContactTarget;
  onContact?: (channel: ContactChannel) => void;
  logContact?: (channel: ContactChannel, done: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const [composing, setComposing] = useState<string | null>(null);
  const [pending, setPending] = useState<ContactChannel | null>(null);
  const [asking, setAsking] = useState<ContactChannel | null>(null);
  const [logging, setLogging] = useState<ContactChannel | null>(null);
  const canLog = Boolean(logContact);
  const started = (channel: ContactChannel) => {
    onContact?.(channel);
    setPending(channel);
  };
  // A field with several numbers: a link (and a WhatsApp button for a mobile) each.
  const numbers = phoneNumbers(number);

  // Back on this tab after the call or the message: offer to log it, once.
  useEffect(() => {
    if (!pending || !canLog) return;
    const back = () => {
      if (document.visibilityState !== 'visible') return;
      setAsking(pending);
      setPending(null);
    };
    window.addEventListener('focus', back);
    document.addEventListener('visibilitychange', back);
    return () => {
      window.removeEventListener('focus', back);
      document.removeEventListener('visibilitychange', back);
    };
  }, [pending, canLog]);

  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}
    >
      {numbers.length === 0 && number}
      {numbers.map((n, i) => (
        <Box
          component="span"
          key={`${i}-${n}`}
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          <TelLink
            number={n}
            label={(shown) => t('contact.call', { number: shown, name: target.name })}
            onClick={() => started('phone')}
          />
          {chileanMobile(n) && (
            <Tooltip title={t('contact.whatsapp.open', { name: target.name })}>
              <IconButton
                size="small"
                sx={{ color: '#1e7e34' }}
                aria-label={`${t('contact.whatsapp.open', { name: target.name })} (${n})`}
                onClick={() => setComposing(n)}
              >
                <WhatsAppIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ))}
      {composing && (
        <WhatsAppDialog
          number={composing}
          target={target}
          onClose={() => setComposing(null)}
          onOpened={() => {
            setComposing(null);
            started('whatsapp');
          }}
        />
      )}
      <Dialog
        open={asking !== null}
        onClose={() => setAsking(null)}
        aria-labelledby="contact-log-title"
      >
        <DialogTitle id="contact-log-title">{t('contact.log.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {asking &&
              t(`contact.log.ask.${asking}`, { name: `${target.name} ${target.lastName}` })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(null)}>{t('contact.log.later')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              setLogging(asking);
              setAsking(null);
            }}
          >
            {t('contact.log.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      {logging && logContact?.(logging, () => setLogging(null))}
    </Box>
  );
}

/** The message, from the default template with the student's data, editable before WhatsApp opens. */
function WhatsAppDialog({
  number,
  target,
  onClose,
  onOpened,
}: {
  number: string;
  target: ContactTarget;
  onClose: () => void;
  onOpened: () => void;
}) {
  const { t } = useTranslation();
  const [template, setTemplate] = useState(() => t('contact.whatsapp.template'));
  const text = fillPlaceholders(template, {
    nombre: target.name,
    apellido: target.lastName,
    curso: target.course.description,
    aula: target.classroom ?? '',
    codigo_ticket: target.ticketCode ?? '',
    rut: target.rut,
  });
  const href = whatsAppHref(number, text);
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="whatsapp-title">
      <DialogTitle id="whatsapp-title">
        {t('contact.whatsapp.title', { name: `${target.name} ${target.lastName}` })}
      </DialogTitle>
      <DialogContent>
        <TextField
          label={t('contact.whatsapp.message')}
          value={template}
          onChange={(e) => setTemplate(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          sx={{ mt: 1 }}
        />
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {t('contact.whatsapp.placeholders', {
            list: MAIL_PLACEHOLDERS.map((p) => `{${p}}`).join(' '),
          })}
        </Typography>
        <Typography
          variant="body2"
          sx={{ mt: 2, whiteSpace: 'pre-wrap' }}
          data-testid="whatsapp-preview"
        >
          {text}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancelSentence')}</Button>
        <Button
          variant="contained"
          startIcon={<WhatsAppIcon />}
          disabled={!href || !text.trim()}
          onClick={() => {
            if (href) window.open(href, '_blank', 'noopener');
            onOpened();
          }}
        >
          {t('contact.whatsapp.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

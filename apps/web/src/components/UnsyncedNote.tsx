import { isAdminLike } from '@sigaf/contract';
import { Alert, type SxProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';

/**
 * The students of the matrícula Moodle has not confirmed yet: counted in the matrícula, in no
 * state (the cards and PDFs say "Sin sincronizar"), and who can synchronise them. Nothing when none.
 */
export function UnsyncedNote({ count, sx }: { count: number | undefined; sx?: SxProps }) {
  const { t } = useTranslation();
  const { role } = useSession();
  if (!count) return null;
  return (
    <Alert severity="info" data-testid="unsynced-note" sx={sx}>
      {t('followUp.card.unsynced', { count })}{' '}
      {t(isAdminLike(role) ? 'followUp.card.unsyncedAdmin' : 'followUp.card.unsyncedAsk')}
    </Alert>
  );
}

import { isAdminLike } from '@sigaf/contract';
import { Alert, Link } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../lib/session';

/**
 * The progress charts' empty state: progress counts only activities with a weight (or in Encuesta
 * and the tests), and a synchronised course starts with every weight at 0. Says so, and where the
 * weights are set (Actividades, with the proposed weights of "Aplicar propuestas").
 */
export function ProgressEmpty() {
  const { t } = useTranslation();
  const { role } = useSession();
  return (
    <Alert severity="info" data-testid="progress-empty" sx={{ maxWidth: 720 }}>
      {t('dashboard.progressEmpty.why')}{' '}
      {isAdminLike(role) ? (
        <Link component={RouterLink} to="/my/configuracion/actividad">
          {t('dashboard.progressEmpty.setWeights')}
        </Link>
      ) : (
        t('dashboard.progressEmpty.askAdmin')
      )}
    </Alert>
  );
}

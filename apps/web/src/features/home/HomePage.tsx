import { isAdminLike, screensFor } from '@sigaf/contract';
import DashboardIcon from '@mui/icons-material/Dashboard';
import { Button, Grid, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageCard } from '../../components/PageCard';
import { useSession } from '../../lib/session';
import { SetupSteps } from './SetupSteps';

/** /my is never blank: for administrators the installation's first steps until done, then shortcuts to the screens of the user's role. */
export default function HomePage() {
  const { t } = useTranslation();
  const { user, role } = useSession();
  const screens = screensFor(role);
  return (
    <PageCard title={t('app.welcome', { name: user?.name ?? '' })} icon={<DashboardIcon />}>
      {isAdminLike(role) && <SetupSteps />}
      <Typography sx={{ mb: 2 }}>{t('app.welcomeHint')}</Typography>
      <Grid container spacing={1.5}>
        {screens.map((s) => (
          <Grid key={s.key} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <Button
              component={Link}
              to={`/my/${s.path}`}
              variant="outlined"
              fullWidth
              sx={{ justifyContent: 'flex-start', textTransform: 'none' }}
            >
              {s.group ? `${t(`nav.${s.group}`)} › ` : ''}
              {t(`nav.${s.key}`)}
            </Button>
          </Grid>
        ))}
      </Grid>
    </PageCard>
  );
}

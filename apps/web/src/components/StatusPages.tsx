import ConstructionIcon from '@mui/icons-material/Construction';
import LockIcon from '@mui/icons-material/Lock';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageCard } from './PageCard';

function Message({
  icon,
  title,
  text,
  home = true,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  home?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <PageCard title={title} icon={icon}>
      <Box sx={{ textAlign: 'center', py: 6 }}>
        <Typography variant="h6" gutterBottom>
          {text}
        </Typography>
        {home && (
          <Button component={Link} to="/my" variant="outlined" sx={{ mt: 2 }}>
            {t('app.backHome')}
          </Button>
        )}
      </Box>
    </PageCard>
  );
}

export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Message
      icon={<ConstructionIcon />}
      title={title}
      text={`${t('app.comingSoon')}. ${t('app.comingSoonHint')}`}
    />
  );
}

export function Forbidden() {
  const { t } = useTranslation();
  return <Message icon={<LockIcon />} title={t('app.forbiddenTitle')} text={t('app.forbidden')} />;
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Message icon={<SearchOffIcon />} title={t('app.notFoundTitle')} text={t('app.notFound')} />
  );
}

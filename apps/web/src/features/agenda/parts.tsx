import { Alert, Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A titled section of Mi agenda with its help line. */
export function Section({
  id,
  title,
  help,
  children,
}: {
  id: string;
  title: string;
  help: string;
  children: ReactNode;
}) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography
        id={id}
        variant="h6"
        component="h2"
        sx={{ color: 'primary.main', fontWeight: 700 }}
      >
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {help}
      </Typography>
      {children}
    </Box>
  );
}

/** Loading, error and empty states around a table. */
export function TableState({
  error,
  empty,
  emptyText,
}: {
  error: boolean;
  empty: boolean;
  emptyText: string;
}) {
  const { t } = useTranslation();
  if (error) return <Alert severity="error">{t('common.loadError')}</Alert>;
  if (empty) return <Alert severity="success">{emptyText}</Alert>;
  return null;
}

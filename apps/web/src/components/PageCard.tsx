import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** Each page sits in a card with a coloured title tab and an icon (docs/development/screens.md#conventions). */
export function PageCard({ title, icon, actions, children }: { title: string; icon?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Paper sx={{ p: { xs: 1.5, sm: 3 }, mt: 3, position: 'relative' }} elevation={1}>
      <Box
        sx={{
          position: 'absolute',
          top: -16,
          left: 16,
          bgcolor: 'primary.main',
          color: 'white',
          px: 2,
          py: 1,
          borderRadius: 1,
          display: 'flex',
          gap: 1,
          alignItems: 'center',
          boxShadow: 2,
        }}
      >
        {icon}
        <Typography component="h1" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, minHeight: 24, flexWrap: 'wrap' }}>{actions}</Box>
      <Box sx={{ mt: 1 }}>{children}</Box>
    </Paper>
  );
}

import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * Each page sits in a card with a coloured title tab and an icon (docs/development/screens.md#conventions).
 * On a phone the tab takes its own line (the actions go below it) and the title keeps to two lines.
 */
export function PageCard({
  title,
  icon,
  actions,
  children,
}: {
  title: string;
  icon?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper sx={{ p: { xs: 1.5, sm: 3 }, mt: 3, position: 'relative' }} elevation={1}>
      <Box
        sx={{
          position: { xs: 'relative', sm: 'absolute' },
          top: { xs: 0, sm: -16 },
          left: { xs: 0, sm: 16 },
          mt: { xs: -3.5, sm: 0 },
          maxWidth: { xs: '100%', sm: 'calc(100% - 32px)' },
          width: 'fit-content',
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
        <Typography
          component="h1"
          variant="subtitle1"
          sx={{
            fontWeight: 600,
            minWidth: 0,
            fontSize: { xs: 15, sm: 16 },
            lineHeight: { xs: 1.4, sm: 1.75 },
            display: '-webkit-box',
            WebkitBoxOrient: 'vertical',
            WebkitLineClamp: 2,
            overflow: 'hidden',
            overflowWrap: 'anywhere',
          }}
        >
          {title}
        </Typography>
      </Box>
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'flex-end',
          gap: 1,
          minHeight: { xs: 0, sm: 24 },
          mt: { xs: actions ? 1.5 : 0, sm: 0 },
          flexWrap: 'wrap',
        }}
      >
        {actions}
      </Box>
      <Box sx={{ mt: 1 }}>{children}</Box>
    </Paper>
  );
}

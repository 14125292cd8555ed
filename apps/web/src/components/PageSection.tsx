import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A titled section of a page (its title is also its accessible name). */
export function PageSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mt: 3 }}>
      <Typography
        component="h2"
        variant="h6"
        sx={{ color: 'secondary.main', fontWeight: 600, mb: 1.5 }}
      >
        {title}
      </Typography>
      {children}
    </Box>
  );
}

import { Box, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { withContrast } from '../../lib/contrast';
import { useFormat } from '../../lib/format';

export interface CountCardProps {
  label: string;
  value?: number | null;
  loading?: boolean;
  /** A failed load shows "—". */
  error?: unknown;
  icon?: ReactNode;
  /** Accent colour of the left border and the icon (theme colour or CSS colour). */
  color?: string;
  /** Prefix of the number, e.g. "+" for new tickets. */
  prefix?: string;
  onClick?: () => void;
}

/** A single figure with its label (the dashboard's stat cards). */
export function CountCard({
  label,
  value,
  loading = false,
  error,
  icon,
  color = 'primary.main',
  prefix = '',
  onClick,
}: CountCardProps) {
  // The icon and the border are graphics: at least 3:1 against the card.
  const tint = color.startsWith('#') ? withContrast(color) : color;
  const f = useFormat();
  const shown =
    error || value === undefined || value === null ? '—' : `${prefix}${f.number(value)}`;
  // A clickable card is one button (Tab and Enter open its tickets); the group keeps its name.
  const content = (
    <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      {icon && <Box sx={{ color: tint, display: 'flex', '& svg': { fontSize: 40 } }}>{icon}</Box>}
      <Box>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        {loading ? (
          <Skeleton width={60} height={40} />
        ) : (
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} data-testid="count-value">
            {shown}
          </Typography>
        )}
      </Box>
    </CardContent>
  );
  return (
    <Card
      variant="outlined"
      role="group"
      aria-label={label}
      sx={{ borderLeft: 6, borderLeftColor: tint, height: '100%' }}
    >
      {onClick ? (
        <CardActionArea onClick={onClick} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
}

import { Box, Chip, type ChipProps } from '@mui/material';
import { stateLook, type StateKind } from '@sigaf/contract';
import { contrastRatio } from '../lib/contrast';

const DARK_TEXT = 'rgba(0, 0, 0, 0.87)';

/** White or dark text, whichever reads better on `color`. */
export const textOn = (color: string) =>
  contrastRatio('#ffffff', color) >= contrastRatio(DARK_TEXT, color) ? '#ffffff' : DARK_TEXT;

/**
 * A state (ticket status, priority, attempt result, student state) as a chip in its one colour
 * (STATE_LOOKS), with its glyph beside the name for staff who do not tell the colours apart. A
 * value without a key (added by staff) is a plain chip.
 */
export function StateChip({
  kind,
  stateKey,
  icon,
  sx,
  color,
  ...props
}: { kind: StateKind; stateKey: string | null | undefined } & ChipProps) {
  const look = stateLook(kind, stateKey);
  if (!look) return <Chip size="small" icon={icon} sx={sx} color={color} {...props} />;
  const text = textOn(look.color);
  const glyph = (
    <Box
      component="span"
      aria-hidden
      data-glyph={look.glyph}
      sx={{ fontSize: '0.8rem', lineHeight: 1 }}
    >
      {look.glyph}
    </Box>
  );
  return (
    <Chip
      size="small"
      icon={icon ?? glyph}
      data-state={stateKey}
      sx={[
        {
          bgcolor: look.color,
          color: text,
          borderColor: look.color,
          '& .MuiChip-icon': { color: text },
          '& .MuiChip-deleteIcon': { color: text },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      {...props}
    />
  );
}

import { Box, Chip, type ChipProps } from '@mui/material';
import { stateLook, type StateKind } from '@sigaf/contract';
import { contrastRatio } from '../lib/contrast';
import { useCatalogueText } from '../lib/catalogue';

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
  label,
  ...props
}: { kind: StateKind; stateKey: string | null | undefined } & ChipProps) {
  const cat = useCatalogueText();
  // A seeded catalogue name in the screen's language; any other label as given.
  const text = typeof label === 'string' ? cat(label) : label;
  const look = stateLook(kind, stateKey);
  if (!look) return <Chip size="small" icon={icon} sx={sx} color={color} label={text} {...props} />;
  const ink = textOn(look.color);
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
      label={text}
      sx={[
        {
          bgcolor: look.color,
          color: ink,
          borderColor: look.color,
          '& .MuiChip-icon': { color: ink },
          '& .MuiChip-deleteIcon': { color: ink },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      {...props}
    />
  );
}

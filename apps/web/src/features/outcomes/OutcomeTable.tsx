import {
  Box,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import type { OutcomeGroup } from '@sigaf/contract';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { headline, ratePoints } from './format';

const CONTACTED = '#006C8D';
const SMALL = '#90A4AE';
const BASELINE = '#AC1315';

/**
 * A row's rate on the one scale every row and dimension shares (0–100 %): its 95 % range as a
 * band, the rate as a dot, the comparable baseline as a red tick (none when there is no baseline).
 */
function RangeBar({ g, label }: { g: OutcomeGroup; label: string }) {
  // A CSS offset along the bar, not a figure shown.
  const left = (v: number | null) => (v === null ? null : `${Math.round(v * 1000) / 10}%`);
  const color = g.small ? SMALL : CONTACTED;
  return (
    <Box
      role="img"
      aria-label={label}
      sx={{ position: 'relative', width: 96, height: 14, bgcolor: 'grey.100', borderRadius: 1 }}
    >
      {g.reengaged.low !== null && g.reengaged.high !== null && (
        <Box
          sx={{
            position: 'absolute',
            top: 4,
            height: 6,
            left: left(g.reengaged.low)!,
            width: `${Math.max(1, Math.round((g.reengaged.high - g.reengaged.low) * 1000) / 10)}%`,
            bgcolor: color,
            opacity: 0.35,
            borderRadius: 1,
          }}
        />
      )}
      {g.reengaged.rate !== null && (
        <Box
          sx={{
            position: 'absolute',
            top: 3,
            width: 8,
            height: 8,
            ml: '-4px',
            left: left(g.reengaged.rate)!,
            bgcolor: color,
            borderRadius: '50%',
          }}
        />
      )}
      {g.baseline.rate !== null && (
        <Box
          sx={{
            position: 'absolute',
            top: 0,
            width: 2,
            height: 14,
            ml: '-1px',
            left: left(g.baseline.rate)!,
            bgcolor: BASELINE,
          }}
        />
      )}
    </Box>
  );
}

// The range goes under the figures it qualifies, so that a table fits the screen at 1366 px.
const COLUMNS = [
  'group',
  'difference',
  'accessed',
  'chart',
  'baseline',
  'weeks',
  'unknown',
  'gain',
] as const;

/** One dimension's rows: the difference from the comparable baseline first, then what it is made of. */
export function OutcomeTable({
  groups,
  names,
  caption,
}: {
  groups: OutcomeGroup[];
  names: string[];
  caption: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const percent = (v: number | null) => f.percent(ratePoints(v));
  const points = (v: number) => {
    const p = Math.round(v * 1000) / 10;
    return t('outcomes.signedPoints', { value: `${p > 0 ? '+' : ''}${f.number(p)}` });
  };
  return (
    // Focusable, so that a keyboard can scroll a table wider than the screen.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
      <Table
        size="small"
        aria-label={caption}
        sx={{ '& th, & td': { px: 1 }, '& .MuiTypography-caption': { whiteSpace: 'normal' } }}
      >
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell
                key={c}
                align={c === 'group' ? 'left' : 'right'}
                sx={{ fontWeight: 700, minWidth: c === 'group' ? 96 : undefined }}
              >
                <Tooltip describeChild title={t(`outcomes.explain.${c}`, { defaultValue: '' })}>
                  <span>{t(`outcomes.columns.${c}`)}</span>
                </Tooltip>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {groups.map((g, i) => (
            <TableRow
              key={g.key}
              sx={
                g.small
                  ? { bgcolor: 'action.hover', '& td': { color: 'text.secondary' } }
                  : undefined
              }
            >
              <TableCell>
                {names[i]}
                {g.small && (
                  <Chip
                    size="small"
                    variant="outlined"
                    label={t('outcomes.small')}
                    sx={{ ml: 1, color: 'text.secondary' }}
                  />
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', maxWidth: 130 }}>
                {g.difference === null ? (
                  '—'
                ) : (
                  <>
                    <Typography component="div" variant="body2" sx={{ fontWeight: 700 }}>
                      {points(g.difference.value)}
                    </Typography>
                    <Typography component="div" variant="caption">
                      {t('outcomes.rangeOf', {
                        low: points(g.difference.low),
                        high: points(g.difference.high),
                      })}
                    </Typography>
                  </>
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', maxWidth: 150 }}>
                {g.reengaged.n === 0
                  ? '—'
                  : t('outcomes.ofN', {
                      accessed: Math.round((g.reengaged.rate ?? 0) * g.reengaged.n),
                      n: g.reengaged.n,
                      rate: percent(g.reengaged.rate),
                    })}
                {g.reengaged.low !== null && (
                  <Typography component="div" variant="caption">
                    {t('outcomes.rangeProbable', {
                      low: percent(g.reengaged.low),
                      high: percent(g.reengaged.high),
                    })}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right">
                <RangeBar g={g} label={headline(t, g, f.percent)} />
              </TableCell>
              <TableCell align="right">{percent(g.baseline.rate)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {t('outcomes.weeksContacts', { weeks: g.reengaged.n, contacts: g.contacts })}
              </TableCell>
              <TableCell align="right">{g.unknown}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {g.gain === null ? '—' : t('outcomes.points', { value: f.number(g.gain) })}
                {g.baselineGain !== null && (
                  <Typography component="div" variant="caption">
                    {`${t('outcomes.baseShort')} ${t('outcomes.points', { value: f.number(g.baselineGain) })}`}
                  </Typography>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

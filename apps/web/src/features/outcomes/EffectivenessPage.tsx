import DownloadIcon from '@mui/icons-material/Download';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import {
  Alert,
  Box,
  Button,
  Chip,
  Grid,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import {
  isAdminLike,
  OUTCOME_DIMENSIONS,
  type OutcomeDimension,
  type OutcomeGroup,
} from '@sigaf/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../components/charts';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { DayField } from '../../components/DayField';
import { PageCard } from '../../components/PageCard';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { downloadOutcomeReport, useOutcomeReport, type ReportParams } from './api';
import { useFormat } from '../../lib/format';
import { groupName, ratePoints } from './format';

const CONTACTED = '#006C8D';
const SMALL = '#B0BEC5';
const BASELINE = '#AC1315';

/** One dimension: a chart of the re-engagement rates against their baselines, and the table behind it. */
function DimensionPanel({ dim, groups }: { dim: OutcomeDimension; groups: OutcomeGroup[] }) {
  const { t } = useTranslation();
  const names = groups.map((g) => groupName(t, dim, g.key, g.label));
  const title = t('outcomes.page.chartTitle', { dim: t(`outcomes.dim.${dim}`).toLowerCase() });
  const data = {
    labels: names,
    datasets: [
      {
        label: t('outcomes.page.series'),
        data: groups.map((g) => Math.round((g.reengaged.rate ?? 0) * 1000) / 10),
        backgroundColor: groups.map((g) => (g.small ? SMALL : CONTACTED)),
      },
      {
        label: t('outcomes.page.baseline'),
        data: groups.map((g) => Math.round((g.baseline.rate ?? 0) * 1000) / 10),
        backgroundColor: groups.map(() => BASELINE),
      },
    ],
  };
  return (
    // minWidth 0: a table wider than a phone scrolls inside its frame instead of widening the page.
    <Grid
      size={{ xs: 12, lg: dim === 'hour' || dim === 'operator' || dim === 'motive' ? 12 : 6 }}
      sx={{ minWidth: 0 }}
    >
      <Paper variant="outlined" sx={{ p: 1 }}>
        <ChartCard
          title={title}
          kind="bar"
          data={data}
          loading={false}
          valueSuffix=" %"
          height={240}
        />
        <OutcomeTable dim={dim} groups={groups} names={names} caption={title} />
      </Paper>
    </Grid>
  );
}

function OutcomeTable({
  groups,
  names,
  caption,
}: {
  dim: OutcomeDimension;
  groups: OutcomeGroup[];
  names: string[];
  caption: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const percent = (v: number | null) => f.percent(ratePoints(v));
  const cols = ['group', 'n', 'rate', 'interval', 'gain', 'baseN', 'baseRate', 'baseGain'] as const;
  return (
    // Focusable, so that a keyboard can scroll a table wider than the screen.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption}>
      <Table size="small" aria-label={caption}>
        <TableHead>
          <TableRow>
            {cols.map((c) => (
              <TableCell
                key={c}
                align={c === 'group' ? 'left' : 'right'}
                sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}
              >
                {t(`outcomes.columns.${c}`)}
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
              <TableCell align="right">{g.reengaged.n}</TableCell>
              <TableCell align="right">{percent(g.reengaged.rate)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {g.reengaged.low === null
                  ? '—'
                  : `${percent(g.reengaged.low)} – ${percent(g.reengaged.high)}`}
              </TableCell>
              <TableCell align="right">
                {g.gain === null ? '—' : t('outcomes.points', { value: f.number(g.gain) })}
              </TableCell>
              <TableCell align="right">{g.baseline.n}</TableCell>
              <TableCell align="right">{percent(g.baseline.rate)}</TableCell>
              <TableCell align="right">
                {g.baselineGain === null
                  ? '—'
                  : t('outcomes.points', { value: f.number(g.baselineGain) })}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Efectividad (docs/usage/efectividad.md): what followed the contacts of a course or of the organisation, per dimension, against the baseline. */
export default function EffectivenessPage() {
  const { t, i18n } = useTranslation();
  const f = useFormat();
  const notify = useNotify();
  const session = useSession();
  const [course, setCourse] = useState<CourseOption | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const params: ReportParams = { courseId: course?.id ?? null, from, to };
  const report = useOutcomeReport(params);
  const exportXlsx = async () => {
    try {
      await downloadOutcomeReport(params, i18n.language === 'en' ? 'en' : 'es');
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    }
  };
  const data = report.data;
  const total = data?.dimensions.all[0];
  return (
    <PageCard
      title={t('outcomes.page.title')}
      icon={<TrendingUpIcon />}
      actions={
        <Button
          color="inherit"
          startIcon={<DownloadIcon />}
          onClick={() => void exportXlsx()}
          disabled={!total}
        >
          {t('outcomes.page.export')}
        </Button>
      }
    >
      <Stack spacing={2}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('outcomes.page.intro')}
        </Typography>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: { md: 'center' } }}
        >
          <Box sx={{ flex: 1 }}>
            <CourseSelector value={course} onChange={setCourse} />
          </Box>
          <DayField size="small" label={t('outcomes.page.from')} value={from} onChange={setFrom} />
          <DayField size="small" label={t('outcomes.page.to')} value={to} onChange={setTo} />
        </Stack>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {course ? course.description : t('outcomes.page.organisation')}
          {data ? ` · ${f.date(data.from)} – ${f.date(data.to)}` : ''}
        </Typography>
        {session.user && !isAdminLike(session.role) && (
          <Alert severity="info">{t('outcomes.page.own')}</Alert>
        )}
        {report.isError && (
          <Alert severity="error">
            {report.error instanceof ApiError ? report.error.message : t('common.loadError')}
          </Alert>
        )}
        {report.isLoading && <Skeleton variant="rounded" height={240} />}
        {data && !total && <Alert severity="info">{t('outcomes.page.empty')}</Alert>}
        {data && total && (
          <Grid container spacing={2}>
            <Grid size={12} sx={{ minWidth: 0 }}>
              <OutcomeTable
                dim="all"
                groups={data.dimensions.all}
                names={[t('outcomes.dim.all')]}
                caption={t('outcomes.dim.all')}
              />
            </Grid>
            {OUTCOME_DIMENSIONS.filter((d) => d !== 'all').map((d) => (
              <DimensionPanel key={d} dim={d} groups={data.dimensions[d]} />
            ))}
          </Grid>
        )}
      </Stack>
    </PageCard>
  );
}

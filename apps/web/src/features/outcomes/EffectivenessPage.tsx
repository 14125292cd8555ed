import DownloadIcon from '@mui/icons-material/Download';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Grid,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  isAdminLike,
  OUTCOME_DIMENSIONS,
  sortGroups,
  type OutcomeDimension,
  type OutcomeGroup,
} from '@sigaf/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { DayField } from '../../components/DayField';
import { PageCard } from '../../components/PageCard';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { downloadOutcomeReport, useOutcomeReport, type ReportParams } from './api';
import { useFormat } from '../../lib/format';
import { useOperators } from '../../lib/operators';
import { groupName, headline } from './format';
import { OutcomeTable } from './OutcomeTable';

/** One dimension: its rows in their natural order, each with its range on the shared 0–100 % scale. */
function DimensionPanel({ dim, groups }: { dim: OutcomeDimension; groups: OutcomeGroup[] }) {
  const { t } = useTranslation();
  const name = (g: OutcomeGroup) => groupName(t, dim, g.key, g.label);
  const sorted = sortGroups(dim, groups, name);
  const title = t('outcomes.page.chartTitle', { dim: t(`outcomes.dim.${dim}`).toLowerCase() });
  return (
    // minWidth 0: a table wider than a phone scrolls inside its frame instead of widening the page.
    <Grid size={12} sx={{ minWidth: 0 }}>
      <Paper variant="outlined" sx={{ p: 1 }}>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <OutcomeTable groups={sorted} names={sorted.map(name)} caption={title} />
      </Paper>
    </Grid>
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
  const [operator, setOperator] = useState<{ id: number; name: string } | null>(null);
  const admin = isAdminLike(session.role);
  const operators = useOperators();
  const params: ReportParams = {
    courseId: course?.id ?? null,
    from,
    to,
    userId: admin ? (operator?.id ?? null) : null,
  };
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
          {admin && (
            <Autocomplete
              size="small"
              sx={{ minWidth: 220 }}
              options={operators.data ?? []}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              value={operator}
              onChange={(_e, v) => setOperator(v)}
              renderInput={(p) => (
                <TextField
                  {...p}
                  label={t('outcomes.page.operator')}
                  placeholder={t('outcomes.page.allOperators')}
                />
              )}
            />
          )}
        </Stack>
        {data?.simulated && <Alert severity="warning">{t('outcomes.page.simulated')}</Alert>}
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {course ? course.description : t('outcomes.page.organisation')}
          {operator && admin ? ` · ${operator.name}` : ''}
          {data
            ? data.countedTo < data.from
              ? ` · ${t('outcomes.page.nothingSettled', { from: f.date(data.from) })}`
              : ` · ${t('outcomes.page.counted', { from: f.date(data.from), to: f.date(data.countedTo) })}`
            : ''}
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
          <Stack spacing={0.5}>
            <Typography variant="body1" sx={{ fontWeight: 600 }}>
              {headline(t, total, f.percent)}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('outcomes.page.units', {
                students: data.students,
                weeks: data.studentWeeks,
                contacts: total.contacts,
              })}
              {total.unknown > 0 && ` ${t('outcomes.page.unknown', { count: total.unknown })}`}
              {total.inferred > 0 && ` ${t('outcomes.page.inferred', { count: total.inferred })}`}
              {data.designEffect > 1 &&
                ` ${t('outcomes.page.designEffect', { value: f.number(Math.round(data.designEffect * 100) / 100) })}`}
            </Typography>
          </Stack>
        )}
        {data && total && (
          <Grid container spacing={2}>
            <Grid size={12} sx={{ minWidth: 0 }}>
              <OutcomeTable
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

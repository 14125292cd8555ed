import AssessmentIcon from '@mui/icons-material/Assessment';
import {
  Alert,
  Box,
  Grid,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { chileParts, dayText, FIGURE_COLOURS } from '@sigaf/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, CountCard } from '../../components/charts';
import { DayField } from '../../components/DayField';
import { PageCard } from '../../components/PageCard';
import { ApiError } from '../../lib/api';
import { exports, useRangeReport } from './api';
import { ChooseCourse, CourseBar, DownloadButton, useReportCourse } from './shared';

const today = () => chileParts(new Date()).day;

/** The range in order, whatever the order picked. */
const ordered = (a: string, b: string): [string, string] => (a <= b ? [a, b] : [b, a]);

/** The report of a range of days (`yyyy-mm-dd`, in order; one day when `from` = `to`): production, then the update. */
export function RangeReport({
  courseId,
  from,
  to,
}: {
  courseId: number;
  from: string;
  to: string;
}) {
  const { t } = useTranslation();
  const report = useRangeReport(courseId, from, to);
  const span = from === to ? 'day' : 'range';
  const c = report.data?.card;
  const loading = report.isPending;
  const error = report.error ?? undefined;
  const chart = (key: 'status' | 'source' | 'type' | 'priority' | 'motive') => (
    <Grid key={key} size={{ xs: 12, md: 6, lg: 4 }}>
      <ChartCard
        title={t(`reports.ticket.chart.${key}`)}
        kind="doughnut"
        data={report.data?.charts[key].chartData}
        loading={loading}
        error={error}
        height={240}
      />
    </Grid>
  );
  const rows = report.data?.operators.table ?? [];
  return (
    <Box>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {span === 'day'
          ? t('reports.ticket.dayOf', { day: dayText(from) })
          : t('reports.ticket.rangeOf', { from: dayText(from), to: dayText(to) })}
      </Typography>
      <Typography
        component="h2"
        variant="h6"
        sx={{ color: 'secondary.main', fontWeight: 600, mt: 2, mb: 1 }}
      >
        {t(`reports.ticket.production.${span}`)}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          {report.isError && (
            <Alert severity="error">
              {report.error instanceof ApiError ? report.error.message : t('common.loadError')}
            </Alert>
          )}
          <TableContainer>
            <Table size="small" aria-label={t(`reports.ticket.production.${span}`)}>
              <TableHead>
                <TableRow>
                  {(['operator', 'tickets', 'closed', 'attempts'] as const).map((k) => (
                    <TableCell
                      key={k}
                      align={k === 'operator' ? 'left' : 'right'}
                      sx={{ fontWeight: 700, color: 'secondary.main' }}
                    >
                      {t(`reports.ticket.table.${k}`)}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.operatorId}>
                    <TableCell>{r.operator}</TableCell>
                    <TableCell align="right">{r.tickets}</TableCell>
                    <TableCell align="right">{r.closed}</TableCell>
                    <TableCell align="right">{r.attempts}</TableCell>
                  </TableRow>
                ))}
                {!loading && rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4} sx={{ color: 'text.secondary', textAlign: 'center' }}>
                      {t(`reports.ticket.noWork.${span}`)}
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <ChartCard
            title={t('reports.ticket.chart.attempts')}
            kind="pie"
            data={report.data?.operators.chartData}
            loading={loading}
            error={error}
            height={220}
          />
        </Grid>
      </Grid>
      <Typography
        component="h2"
        variant="h6"
        sx={{ color: 'secondary.main', fontWeight: 600, mt: 3, mb: 1 }}
      >
        {t(`reports.ticket.update.${span}`)}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {t(`reports.ticket.scope.${span}`)}
      </Typography>
      <Grid container spacing={2}>
        {(
          [
            ['created', c ? c.created : undefined, '+'],
            ['total', c?.total, ''],
            ['open', c?.open, ''],
            ['closed', c?.closed, ''],
          ] as const
        ).map(([k, v, prefix]) => (
          <Grid key={k} size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t(`reports.ticket.card.${k}`)}
              value={v}
              prefix={prefix}
              color={FIGURE_COLOURS[k]}
              loading={loading}
              error={error}
            />
          </Grid>
        ))}
        {(['status', 'source', 'type', 'priority', 'motive'] as const).map(chart)}
      </Grid>
    </Box>
  );
}

/** Reportes de ticket (docs/development/screens.md#ticket-report): one range of days for the figures, the history workbook and the PDF. */
export default function TicketReportPage() {
  const { t } = useTranslation();
  const [course, setCourse] = useReportCourse();
  const [picked, setPicked] = useState(() => ({ from: today(), to: today() }));
  const [from, to] = ordered(picked.from, picked.to);
  return (
    <PageCard
      title={t('reports.ticket.title')}
      icon={<AssessmentIcon />}
      actions={
        course && (
          <>
            <DownloadButton
              kind="xlsx"
              label={t('reports.download')}
              run={() => exports.ticketHistory(course.id, from, to)}
            />
            <DownloadButton
              kind="pdf"
              label={t('reports.pdf')}
              run={() => exports.ticketRangePdf(course.id, from, to)}
            />
          </>
        )
      }
    >
      <CourseBar course={course} onChange={setCourse} />
      {!course ? (
        <ChooseCourse />
      ) : (
        <>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ alignItems: { sm: 'center' }, mb: 1 }}
          >
            <Typography sx={{ fontWeight: 600 }}>{t('reports.ticket.range')}</Typography>
            {(['from', 'to'] as const).map((k) => (
              <DayField
                key={k}
                label={t(`reports.ticket.${k}`)}
                value={picked[k]}
                onChange={(d) => {
                  if (d) setPicked((p) => ({ ...p, [k]: d }));
                }}
                sx={{ maxWidth: 200 }}
              />
            ))}
          </Stack>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
            {t('reports.ticket.rangeHint')}
          </Typography>
          <RangeReport courseId={course.id} from={from} to={to} />
        </>
      )}
    </PageCard>
  );
}

import AssessmentIcon from '@mui/icons-material/Assessment';
import {
  Alert,
  Box,
  Chip,
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
import { chileParts, dayText } from '@sigaf/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, CountCard } from '../../components/charts';
import { DayField } from '../../components/DayField';
import { PageCard } from '../../components/PageCard';
import { ApiError } from '../../lib/api';
import { exports, useDayReport } from './api';
import { daysBetween } from './days';
import { ChooseCourse, CourseBar, DownloadButton, useReportCourse } from './shared';

const today = () => chileParts(new Date()).day;

function DayReport({ courseId, day }: { courseId: number; day: string }) {
  const { t } = useTranslation();
  const { card, charts, operators } = useDayReport(courseId, day);
  const c = card.data;
  const chart = (key: 'status' | 'source' | 'type' | 'priority' | 'motive') => (
    <Grid key={key} size={{ xs: 12, md: 6, lg: 4 }}>
      <ChartCard
        title={t(`reports.ticket.chart.${key}`)}
        kind="doughnut"
        data={charts.data?.[key].chartData}
        loading={charts.isPending}
        error={charts.error ?? undefined}
        height={240}
      />
    </Grid>
  );
  const rows = operators.data?.table ?? [];
  return (
    <Box>
      <Typography
        component="h2"
        variant="h6"
        sx={{ color: 'secondary.main', fontWeight: 600, mt: 2, mb: 1 }}
      >
        {t('reports.ticket.production')}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          {operators.isError && (
            <Alert severity="error">
              {operators.error instanceof ApiError
                ? operators.error.message
                : t('common.loadError')}
            </Alert>
          )}
          <TableContainer>
            <Table size="small" aria-label={t('reports.ticket.production')}>
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
                {!operators.isPending && rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4} sx={{ color: 'text.secondary', textAlign: 'center' }}>
                      {t('reports.ticket.noWork')}
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
            data={operators.data?.chartData}
            loading={operators.isPending}
            error={operators.error ?? undefined}
            height={220}
          />
        </Grid>
      </Grid>
      <Typography
        component="h2"
        variant="h6"
        sx={{ color: 'secondary.main', fontWeight: 600, mt: 3, mb: 1 }}
      >
        {t('reports.ticket.update')}
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
              loading={card.isPending}
              error={card.error ?? undefined}
            />
          </Grid>
        ))}
        {(['status', 'source', 'type', 'priority', 'motive'] as const).map(chart)}
      </Grid>
    </Box>
  );
}

/** Reportes de ticket (docs/development/screens.md#ticket-report): the course's history workbook, and one day's production and update. */
export default function TicketReportPage() {
  const { t } = useTranslation();
  const [course, setCourse] = useReportCourse();
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [day, setDay] = useState<string>(today);
  const days = daysBetween(from, to);
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
              run={() => exports.ticketHistory(course.id)}
            />
            <DownloadButton
              kind="pdf"
              label={t('reports.pdf')}
              run={() => exports.ticketDayPdf(course.id, day)}
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
            {(
              [
                ['from', from, setFrom],
                ['to', to, setTo],
              ] as const
            ).map(([k, v, set]) => (
              <DayField
                key={k}
                label={t(`reports.ticket.${k}`)}
                value={v}
                onChange={(d) => {
                  if (!d) return;
                  set(d);
                  setDay(d);
                }}
                sx={{ maxWidth: 200 }}
              />
            ))}
          </Stack>
          <Box
            role="listbox"
            aria-label={t('reports.ticket.days')}
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }}
          >
            {days.map((d) => (
              <Chip
                key={d}
                role="option"
                aria-selected={d === day}
                label={dayText(d)}
                color={d === day ? 'primary' : 'default'}
                variant={d === day ? 'filled' : 'outlined'}
                onClick={() => setDay(d)}
              />
            ))}
          </Box>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('reports.ticket.dayOf', { day: dayText(day) })}
          </Typography>
          <DayReport courseId={course.id} day={day} />
        </>
      )}
    </PageCard>
  );
}

import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import FiberNewIcon from '@mui/icons-material/FiberNew';
import GroupsIcon from '@mui/icons-material/Groups';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import InsightsIcon from '@mui/icons-material/Insights';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import DirectionsRunIcon from '@mui/icons-material/DirectionsRun';
import { Alert, Box, Grid, LinearProgress, Paper, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { chileParts, FIGURE_COLOURS, isAdminLike, STATUS_DATASETS } from '@sigaf/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CountCard, PathChart, type PathChartProps } from '../../components/charts';
import { CourseSelector } from '../../components/CourseSelector';
import { PageCard } from '../../components/PageCard';
import { PageSection } from '../../components/PageSection';
import { useSession } from '../../lib/session';
import { useCurrentCourse } from '../../lib/rememberedCourse';
import { ticketListHref, type TicketLinkFilters } from '../../lib/ticketLink';
import { ProgressEmpty } from '../../components/ProgressEmpty';
import { UnsyncedNote } from '../../components/UnsyncedNote';
import { useChartLookups, useFollowCard, useTicketCount, type CataloguePath } from './api';
import { coursePaths, overviewQuery } from './prefetch';

/** Today in Chile, yyyy-mm-dd (the day "Tickets nuevos" counts). */
const today = () => chileParts(new Date()).day;

const statusOf = (datasetLabel?: string): 'open' | 'closed' | 'all' =>
  datasetLabel === STATUS_DATASETS.open
    ? 'open'
    : datasetLabel === STATUS_DATASETS.closed
      ? 'closed'
      : 'all';

/** A dashboard chart: two thirds of its width from lg up, unless it spans the row. */
const Chart = ({ size = 6, ...props }: Omit<PathChartProps, 'lgSize'>) => (
  <PathChart size={size} lgSize={size === 12 ? 12 : size / 1.5} {...props} />
);
const Section = PageSection;

/** Estadística's figures arrive in one answer (overviewQuery); until then, nothing asks for them one by one. */
function CourseDashboard({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const overview = useQuery(overviewQuery(courseId));
  if (overview.isPending) return <LinearProgress sx={{ mt: 3 }} aria-label={t('app.loading')} />;
  return <CourseFigures courseId={courseId} />;
}

function CourseFigures({ courseId }: { courseId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const counts = {
    today: useTicketCount(courseId, 'last-day'),
    total: useTicketCount(courseId, 'total'),
    open: useTicketCount(courseId, 'open'),
    closed: useTicketCount(courseId, 'close'),
  };
  const { card: cardPath, charts: path } = coursePaths(courseId);
  const card = useFollowCard(cardPath);
  const lookups = useChartLookups();
  /** A failed read leaves the click without effect, as a label without a value does. */
  const catalogue = (path: CataloguePath) => lookups.catalogue(path).catch(() => undefined);

  const open = (filters: TicketLinkFilters) => navigate(ticketListHref(courseId, filters));
  const byValue =
    (
      path: CataloguePath,
      param: 'source_ticket_id' | 'type_ticket_id' | 'priority_ticket_id' | 'motive_ticket_id',
    ) =>
    async (label: string) => {
      const v = (await catalogue(path))?.find((x) => x.description === label);
      if (v) open({ status: 'all', [param]: v.id });
    };
  const byStatus = async (label: string) => {
    const v = (await catalogue('status-tickets'))?.find((x) => x.description === label);
    if (v) open({ status: v.key === 'open' ? 'open' : 'closed' });
  };
  const byOperator = async (label: string, dataset?: string) => {
    const op = (await lookups.operators().catch(() => undefined))?.find((o) => o.name === label);
    if (op) open({ status: statusOf(dataset), user_assigned_id: op.id });
  };
  const byMotiveStatus = async (label: string, dataset?: string) => {
    const v = (await catalogue('motive-tickets'))?.find((x) => x.description === label);
    if (v) open({ status: statusOf(dataset), motive_ticket_id: v.id });
  };

  const { role } = useSession();
  const hint = t('dashboard.clickHint');
  const count = (key: keyof typeof counts) => ({
    value: counts[key].data,
    loading: counts[key].isPending,
    error: counts[key].error ?? undefined,
  });
  return (
    <>
      <Section title={t('dashboard.tickets')}>
        {!isAdminLike(role) && (
          <Alert severity="info" data-testid="operator-scope" sx={{ mb: 2 }}>
            {t('dashboard.operatorScope')}
          </Alert>
        )}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.count.today')}
              prefix="+"
              icon={<FiberNewIcon />}
              color={FIGURE_COLOURS.created}
              {...count('today')}
              onClick={() => open({ status: 'all', from: today(), to: today() })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.count.total')}
              icon={<ConfirmationNumberIcon />}
              color={FIGURE_COLOURS.total}
              {...count('total')}
              onClick={() => open({ status: 'all' })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.count.open')}
              icon={<LockOpenIcon />}
              color={FIGURE_COLOURS.open}
              {...count('open')}
              onClick={() => open({ status: 'open' })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.count.closed')}
              icon={<CheckCircleIcon />}
              color={FIGURE_COLOURS.closed}
              {...count('closed')}
              onClick={() => open({ status: 'closed' })}
            />
          </Grid>
          <Chart
            path={path.source}
            title={t('dashboard.chart.source')}
            kind="doughnut"
            onSelect={byValue('source-tickets', 'source_ticket_id')}
            hint={hint}
          />
          <Chart
            path={path.type}
            title={t('dashboard.chart.type')}
            kind="doughnut"
            onSelect={byValue('type-tickets', 'type_ticket_id')}
            hint={hint}
          />
          <Chart
            path={path.status}
            title={t('dashboard.chart.status')}
            kind="doughnut"
            onSelect={byStatus}
            hint={hint}
          />
          <Chart
            path={path.priority}
            title={t('dashboard.chart.priority')}
            kind="doughnut"
            onSelect={byValue('priority-tickets', 'priority_ticket_id')}
            hint={hint}
          />
          <Chart
            path={path.motive}
            title={t('dashboard.chart.motive')}
            kind="pie"
            suffix="%"
            onSelect={byValue('motive-tickets', 'motive_ticket_id')}
            hint={hint}
          />
          <Chart path={path.age} title={t('dashboard.chart.age')} kind="bar" />
          <Chart
            path={path.statusOperator}
            title={t('dashboard.chart.statusOperator')}
            kind="horizontalBar"
            onSelect={byOperator}
            hint={hint}
            size={12}
          />
          <Chart
            path={path.statusMotive}
            title={t('dashboard.chart.statusMotive')}
            kind="horizontalBar"
            onSelect={byMotiveStatus}
            hint={hint}
            size={12}
          />
        </Grid>
      </Section>
      <Section title={t('dashboard.followUp')}>
        <UnsyncedNote count={card.data?.unsynced} sx={{ mb: 2 }} />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.card.total')}
              icon={<GroupsIcon />}
              color={FIGURE_COLOURS.total}
              value={card.data?.total}
              loading={card.isPending}
              error={card.error ?? undefined}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.card.resign')}
              icon={<DirectionsRunIcon />}
              color={FIGURE_COLOURS.resign}
              value={card.data?.resign}
              loading={card.isPending}
              error={card.error ?? undefined}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.card.active')}
              icon={<HowToRegIcon />}
              color={FIGURE_COLOURS.active}
              value={card.data?.active}
              loading={card.isPending}
              error={card.error ?? undefined}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t('dashboard.card.inactive')}
              icon={<PersonOffIcon />}
              color={FIGURE_COLOURS.inactive}
              value={card.data?.inactive}
              loading={card.isPending}
              error={card.error ?? undefined}
            />
          </Grid>
          <Chart
            path={path.studentStatus}
            title={t('dashboard.chart.studentStatus')}
            kind="doughnut"
          />
          <Chart path={path.lastAccess} title={t('dashboard.chart.lastAccess')} kind="doughnut" />
          <Chart
            path={path.progress}
            title={t('dashboard.chart.progressGraded')}
            kind="horizontalBar"
            suffix="%"
            size={12}
            empty={<ProgressEmpty />}
          />
          <Chart
            path={path.progressDone}
            title={t('dashboard.chart.progressDone')}
            kind="horizontalBar"
            suffix="%"
            size={12}
            empty={<ProgressEmpty />}
          />
        </Grid>
      </Section>
    </>
  );
}

/** Estadística (docs/development/screens.md#estadistica): one course's tickets and students at a glance. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const [course, setCourse] = useCurrentCourse();
  return (
    <PageCard title={t('nav.dashboard')} icon={<InsightsIcon />}>
      <Paper variant="outlined" sx={{ p: 2, bgcolor: 'grey.50' }}>
        <CourseSelector value={course} onChange={setCourse} />
      </Paper>
      {course ? (
        <CourseDashboard key={course.id} courseId={course.id} />
      ) : (
        <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary' }}>
          <AssignmentIndIcon sx={{ fontSize: 56, opacity: 0.4 }} />
          <Typography variant="h6" sx={{ mt: 1 }}>
            {t('dashboard.chooseCourse')}
          </Typography>
        </Box>
      )}
    </PageCard>
  );
}

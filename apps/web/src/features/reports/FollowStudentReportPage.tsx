import { FIGURE_COLOURS } from '@sigaf/contract';
import DirectionsRunIcon from '@mui/icons-material/DirectionsRun';
import GroupsIcon from '@mui/icons-material/Groups';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import SchoolIcon from '@mui/icons-material/School';
import { Alert, Box, Chip, Grid, Skeleton, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, CountCard, useChart } from '../../components/charts';
import { PageCard } from '../../components/PageCard';
import { UnsyncedNote } from '../../components/UnsyncedNote';
import { exports, useClassroomCard, useCourseClassrooms, useCourseSections } from './api';
import { ChooseCourse, CourseBar, DownloadButton, useReportCourse } from './shared';

function Chips<T extends { id: number; label: string }>({
  label,
  items,
  value,
  onChange,
  loading,
}: {
  label: string;
  items: T[];
  value: number | null;
  onChange: (id: number) => void;
  loading: boolean;
}) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography sx={{ fontWeight: 600, mb: 1 }}>{label}</Typography>
      {loading ? (
        <Skeleton width={300} height={32} />
      ) : (
        <Box role="listbox" aria-label={label} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {items.map((i) => (
            <Chip
              key={i.id}
              role="option"
              aria-selected={i.id === value}
              label={i.label}
              color={i.id === value ? 'primary' : 'default'}
              variant={i.id === value ? 'filled' : 'outlined'}
              onClick={() => onChange(i.id)}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}

function SectionCharts({ base, sectionId }: { base: string; sectionId: number }) {
  const { t } = useTranslation();
  const graded = useChart(`${base}/sections/${sectionId}/progress-activities`);
  const done = useChart(`${base}/sections/${sectionId}/progress-activities-avance`);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title={t('reports.follow.chart.activitiesGraded')}
          kind="horizontalBar"
          valueSuffix="%"
          data={graded.data}
          loading={graded.isPending}
          error={graded.error ?? undefined}
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title={t('reports.follow.chart.activitiesDone')}
          kind="horizontalBar"
          valueSuffix="%"
          data={done.data}
          loading={done.isPending}
          error={done.error ?? undefined}
        />
      </Grid>
    </Grid>
  );
}

function ClassroomReport({ courseId, classroomId }: { courseId: number; classroomId: number }) {
  const { t } = useTranslation();
  const base = `/api/v2/course-registered-users/${courseId}/classrooms/${classroomId}`;
  const card = useClassroomCard(courseId, classroomId);
  const status = useChart(`${base}/status-user-classroom`);
  const progress = useChart(`${base}/progress-classroom-chart`);
  const sections = useCourseSections(courseId);
  const [sectionId, setSectionId] = useState<number | null>(null);
  const figures = [
    ['total', card.data?.total, <GroupsIcon key="i" />],
    ['resign', card.data?.resign, <DirectionsRunIcon key="i" />],
    ['active', card.data?.active, <HowToRegIcon key="i" />],
    ['inactive', card.data?.inactive, <PersonOffIcon key="i" />],
  ] as const;
  return (
    <>
      <UnsyncedNote count={card.data?.unsynced} sx={{ mb: 2 }} />
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {figures.map(([k, v, icon]) => (
          <Grid key={k} size={{ xs: 12, sm: 6, lg: 3 }}>
            <CountCard
              label={t(`dashboard.card.${k}`)}
              value={v}
              icon={icon}
              color={FIGURE_COLOURS[k]}
              loading={card.isPending}
              error={card.error ?? undefined}
            />
          </Grid>
        ))}
        <Grid size={{ xs: 12, md: 5 }}>
          <ChartCard
            title={t('dashboard.chart.studentStatus')}
            kind="doughnut"
            data={status.data}
            loading={status.isPending}
            error={status.error ?? undefined}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <ChartCard
            title={t('dashboard.chart.progressGraded')}
            kind="horizontalBar"
            valueSuffix="%"
            data={progress.data}
            loading={progress.isPending}
            error={progress.error ?? undefined}
          />
        </Grid>
      </Grid>
      {sections.isError && <Alert severity="error">{t('common.loadError')}</Alert>}
      <Chips
        label={t('reports.follow.chooseSection')}
        items={(sections.data ?? []).map((s) => ({ id: s.id!, label: s.description }))}
        value={sectionId}
        onChange={setSectionId}
        loading={sections.isPending}
      />
      {sectionId !== null && <SectionCharts base={base} sectionId={sectionId} />}
    </>
  );
}

/** Reportes seguimiento de alumnos (docs/development/screens.md#follow-student-report): per classroom, the card, status and progress; per section, each activity. */
export default function FollowStudentReportPage() {
  const { t } = useTranslation();
  const [course, setCourse] = useReportCourse();
  const [classroomId, setClassroomId] = useState<number | null>(null);
  const classrooms = useCourseClassrooms(course?.id);
  const choose = (c: typeof course) => {
    setCourse(c);
    setClassroomId(null);
  };
  return (
    <PageCard
      title={t('reports.follow.title')}
      icon={<SchoolIcon />}
      actions={
        course && (
          <>
            <DownloadButton
              kind="xlsx"
              label={t('reports.follow.roster')}
              run={() => exports.roster(course.id, classroomId ?? undefined)}
            />
            <DownloadButton
              kind="pdf"
              label={t('reports.pdf')}
              disabled={classroomId === null}
              run={() => exports.followStudentPdf(course.id, classroomId!)}
            />
          </>
        )
      }
    >
      <CourseBar course={course} onChange={choose} />
      {!course ? (
        <ChooseCourse />
      ) : (
        <>
          <Chips
            label={t('reports.follow.chooseClassroom')}
            items={(classrooms.data ?? []).map((c) => ({
              id: c.classroomId,
              label: t('reports.follow.classroomChip', { name: c.classroom, count: c.count }),
            }))}
            value={classroomId}
            onChange={setClassroomId}
            loading={classrooms.isPending}
          />
          {classrooms.isSuccess && classrooms.data.length === 0 && (
            <Alert severity="info">{t('reports.follow.noClassrooms')}</Alert>
          )}
          {classroomId !== null && (
            <ClassroomReport key={classroomId} courseId={course.id} classroomId={classroomId} />
          )}
        </>
      )}
    </PageCard>
  );
}

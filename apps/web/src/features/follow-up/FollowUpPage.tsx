import DirectionsRunIcon from '@mui/icons-material/DirectionsRun';
import GroupsIcon from '@mui/icons-material/Groups';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import SchoolIcon from '@mui/icons-material/School';
import { chileDateTime, PERMISSIONS, type FollowUpCourse } from '@sigaf/contract';
import { Alert, Box, Grid, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CountCard, PathChart } from '../../components/charts';
import { PageSection } from '../../components/PageSection';
import { PageCard } from '../../components/PageCard';
import { ProgressEmpty } from '../../components/ProgressEmpty';
import { useCurrentCourse } from '../../lib/rememberedCourse';
import { UnsyncedNote } from '../../components/UnsyncedNote';
import { useSession } from '../../lib/session';
import { useFollowCardAt, useFollowUpClassrooms, useFollowUpCourses } from './api';
import { readFollowUpLink, writeFollowUpLink } from './link';
import { StudentTable } from './StudentTable';

const Section = PageSection;
const Chart = PathChart;

/**
 * The follow-student card, status and last-access charts and progress by section, of one
 * classroom (the per-classroom calls, which a tutor may use for their classrooms) or, for staff
 * who read the dashboard, of the whole course. A section bar opens its progress per activity.
 */
function Summary({
  courseId,
  classroomId,
  canReadCourse,
}: {
  courseId: number;
  classroomId: number | null;
  canReadCourse: boolean;
}) {
  const { t } = useTranslation();
  const [section, setSection] = useState<string | null>(null);
  const base = `/api/v2/course-registered-users/${courseId}`;
  const room = classroomId !== null ? `${base}/classrooms/${classroomId}` : null;
  const paths = room
    ? {
        card: `${room}/follow-student-classroom`,
        status: `${room}/status-user-classroom`,
        access: `${room}/logged-time-classroom`,
        progress: `${room}/progress-classroom-chart`,
      }
    : {
        card: `${base}/follow-student-card`,
        status: `${base}/status/count`,
        access: `${base}/logged-time/count`,
        progress: `${base}/progress-chart`,
      };
  const card = useFollowCardAt(room || canReadCourse ? paths.card : null);
  if (!room && !canReadCourse)
    return <Alert severity="info">{t('followUp.summary.chooseClassroom')}</Alert>;
  // The server's figures as they come (docs/development/domain.md#figures): the matrícula counts every student, synchronised or not (the note below says how many are not).
  const count = (key: 'total' | 'resign' | 'active' | 'inactive') => ({
    value: card.data?.[key],
    loading: card.isPending,
    error: card.error ?? undefined,
  });
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <CountCard
          label={t('followUp.card.total')}
          icon={<GroupsIcon />}
          color="#006C8D"
          {...count('total')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <CountCard
          label={t('followUp.card.resign')}
          icon={<DirectionsRunIcon />}
          color="#D32F2F"
          {...count('resign')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <CountCard
          label={t('followUp.card.active')}
          icon={<HowToRegIcon />}
          color="#5cb85c"
          {...count('active')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
        <CountCard
          label={t('followUp.card.inactive')}
          icon={<PersonOffIcon />}
          color="#9E9E9E"
          {...count('inactive')}
        />
      </Grid>
      <Chart path={paths.status} title={t('followUp.chart.status')} kind="doughnut" />
      <Chart path={paths.access} title={t('followUp.chart.lastAccess')} kind="doughnut" />
      <Chart
        path={paths.progress}
        title={t('followUp.chart.progress')}
        kind="horizontalBar"
        suffix="%"
        size={12}
        onSelect={room ? setSection : undefined}
        hint={room ? t('followUp.chart.sectionHint') : undefined}
        empty={<ProgressEmpty />}
      />
      {Boolean(card.data?.unsynced) && (
        <Grid size={12}>
          <UnsyncedNote count={card.data?.unsynced} />
        </Grid>
      )}
      {room && section && (
        <>
          <Chart
            path={`${room}/sections/${encodeURIComponent(section)}/progress-activities`}
            title={t('followUp.chart.activities', { section })}
            kind="horizontalBar"
            suffix="%"
          />
          <Chart
            path={`${room}/sections/${encodeURIComponent(section)}/progress-activities-avance`}
            title={t('followUp.chart.activitiesDone', { section })}
            kind="horizontalBar"
            suffix="%"
          />
        </>
      )}
    </Grid>
  );
}

/**
 * Seguimiento (docs/development/screens.md#seguimiento): a course (and classroom) of the follow-up, its figures and the
 * student table. A tutor is offered only the courses and classrooms assigned to them.
 */
export default function FollowUpPage() {
  const { t } = useTranslation();
  const { role } = useSession();
  const isTutor = role === 'tutor';
  const canReadCourse = Boolean(role && PERMISSIONS.dashboardRead.includes(role));
  const courses = useFollowUpCourses();
  const [current, setCurrent] = useCurrentCourse();
  // The course, classroom and filters live in the address (replacing its entry), so Back and
  // Forward return to the list as it was left.
  const [params, setParams] = useSearchParams();
  const [link] = useState(() => readFollowUpLink(params));
  const [picked, setPicked] = useState<number | null | undefined>(link.courseId ?? undefined);
  const courseId = picked !== undefined ? picked : (current?.id ?? null);
  const [categoryId, setCategoryId] = useState<number | ''>('');
  const [classroomId, setClassroomId] = useState<number | ''>(link.classroomId);
  const [filters, setFilters] = useState(link.filters);
  useEffect(() => {
    if (link.courseId !== null && link.courseId !== current?.id) setCurrent({ id: link.courseId });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on opening: the address's course
  }, []);
  useEffect(() => {
    const next = writeFollowUpLink({ courseId, classroomId, filters });
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the address follows the state, not the reverse
  }, [courseId, classroomId, filters]);
  const course: FollowUpCourse | null = courses.data?.find((c) => c.id === courseId) ?? null;
  const classrooms = useFollowUpClassrooms(course ? course.id : null);
  const categories = useMemo(() => {
    const seen = new Map<number, string>();
    for (const c of courses.data ?? []) seen.set(c.category.id, c.category.description);
    return [...seen].map(([id, description]) => ({ id, description }));
  }, [courses.data]);
  const category = categoryId !== '' ? categoryId : (course?.category.id ?? '');
  // A tutor always looks at one of their classrooms; staff may look at the whole course.
  const rooms = classrooms.data ?? [];
  const room =
    classroomId !== '' && rooms.some((r) => r.id === classroomId)
      ? classroomId
      : isTutor || !canReadCourse
        ? (rooms[0]?.id ?? '')
        : '';

  const chooseCourse = (id: number | null) => {
    setPicked(id);
    setCurrent(id === null ? null : { id });
    setClassroomId('');
    setFilters({});
  };

  return (
    <PageCard title={t('nav.followUp')} icon={<GroupsIcon />}>
      <Paper variant="outlined" sx={{ p: 2, bgcolor: 'grey.50' }} data-testid="follow-up-pickers">
        {/* The pickers wrap inside their card when it is narrow (a 1366 px screen with the menu open, a phone). */}
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 2 }}>
          <TextField
            select
            label={t('course.category')}
            value={categories.some((c) => c.id === category) ? category : ''}
            onChange={(e) => {
              setCategoryId(Number(e.target.value));
              chooseCourse(null);
            }}
            sx={{ flex: '1 1 220px', minWidth: { xs: '100%', sm: 220 } }}
          >
            {categories.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.description}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('course.course')}
            value={course?.id ?? ''}
            disabled={category === ''}
            onChange={(e) => chooseCourse(Number(e.target.value))}
            sx={{ flex: '1 1 260px', minWidth: { xs: '100%', sm: 260 } }}
          >
            {(courses.data ?? [])
              .filter((c) => c.category.id === category)
              .map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.description}
                </MenuItem>
              ))}
          </TextField>
          <TextField
            select
            label={t('followUp.classroom')}
            value={room}
            disabled={!course || !rooms.length}
            onChange={(e) => {
              setClassroomId(e.target.value === '' ? '' : Number(e.target.value));
              setFilters({});
            }}
            sx={{ flex: '1 1 220px', minWidth: { xs: '100%', sm: 220 } }}
            slotProps={{
              select: { displayEmpty: !isTutor && canReadCourse },
              inputLabel: { shrink: true },
            }}
          >
            {!isTutor && canReadCourse && (
              <MenuItem value="">{t('followUp.allClassrooms')}</MenuItem>
            )}
            {rooms.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {t('followUp.classroomOption', { classroom: r.description, count: r.students })}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {course?.lastSyncAt && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
            {t('followUp.lastSync', { date: chileDateTime(course.lastSyncAt) })}
          </Typography>
        )}
      </Paper>
      {courses.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {t('common.loadError')}
        </Alert>
      )}
      {courses.data && courses.data.length === 0 && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t(isTutor ? 'followUp.noClassroomsTutor' : 'followUp.noCourses')}
        </Alert>
      )}
      {course ? (
        <>
          <Section title={t('followUp.summary.title')}>
            <Summary
              key={`${course.id}-${room}`}
              courseId={course.id}
              classroomId={room === '' ? null : room}
              canReadCourse={canReadCourse}
            />
          </Section>
          <Section title={t('followUp.table.title')}>
            <StudentTable
              key={`${course.id}-${room}`}
              course={course}
              classroomId={room === '' ? undefined : room}
              initialFilters={filters}
              onFiltersChange={setFilters}
            />
          </Section>
        </>
      ) : (
        courses.data?.length !== 0 && (
          <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary' }}>
            <SchoolIcon sx={{ fontSize: 56, opacity: 0.4 }} />
            <Typography variant="h6" sx={{ mt: 1 }}>
              {t('followUp.chooseCourse')}
            </Typography>
          </Box>
        )
      )}
    </PageCard>
  );
}

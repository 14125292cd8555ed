import AddIcon from '@mui/icons-material/Add';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Resource } from '@sigaf/contract';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { PageCard } from '../../components/PageCard';
import { getData } from '../../lib/api';
import { readTicketLink } from '../../lib/ticketLink';
import type { TicketFilterValues } from './api';
import { CreateMassiveDialog, CreateSingleDialog } from './CreateTickets';
import { TicketDialog, useTicketParam } from './TicketDialog';
import { TicketsTable } from './TicketsTable';

/** The chosen course survives a reload of the tab. */
const COURSE_KEY = 'sigaf.tickets.course';

function storedCourse(): CourseOption | null {
  try {
    const raw = sessionStorage.getItem(COURSE_KEY);
    return raw ? (JSON.parse(raw) as CourseOption) : null;
  } catch {
    return null;
  }
}

/** Ticket (docs/development/screens.md#ticket): one course's tickets, worked one by one or in bulk. */
export default function TicketPage() {
  const { t } = useTranslation();
  const [course, setCourse] = useState<CourseOption | null>(storedCourse);
  const [creating, setCreating] = useState<'single' | 'massive' | null>(null);
  const [openId, setOpenId] = useTicketParam();
  // A link such as /my/ticket?course=3&status=open&source_ticket_id=2 (from the dashboard).
  const [params] = useSearchParams();
  const link = useMemo(() => readTicketLink(params), [params]);
  const choose = (c: CourseOption | null) => {
    setCourse(c);
    try {
      if (c) sessionStorage.setItem(COURSE_KEY, JSON.stringify(c));
      else sessionStorage.removeItem(COURSE_KEY);
    } catch {
      /* not remembered */
    }
  };
  useEffect(() => {
    if (!link.courseId || link.courseId === course?.id) return;
    let live = true;
    getData<Resource<CourseOption>>(`/api/v2/courses/${link.courseId}`)
      .then((r) => live && choose(r.properties))
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link.courseId]);

  return (
    <PageCard title={t('nav.ticket')} icon={<ConfirmationNumberIcon />}>
      <Paper variant="outlined" sx={{ p: 2, mb: 2, bgcolor: 'grey.50' }}>
        <CourseSelector value={course} onChange={choose} />
      </Paper>
      {!course ? (
        <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary' }}>
          <ConfirmationNumberIcon sx={{ fontSize: 56, opacity: 0.4 }} />
          <Typography variant="h6" sx={{ mt: 1 }}>
            {t('tickets.chooseCourse')}
          </Typography>
          <Typography variant="body2">{t('tickets.chooseCourseHint')}</Typography>
        </Box>
      ) : (
        <TicketsTable
          key={link.courseId === course.id ? link.key : 'own'}
          initialFilters={link.courseId === course.id ? (link.filters as Partial<TicketFilterValues>) : undefined}
          courseId={course.id}
          onOpen={setOpenId}
          defaultStatus="open"
          perPage={25}
          label={t('tickets.gridLabel', { course: course.description })}
          actions={
            <>
              <Button variant="contained" endIcon={<AddIcon />} onClick={() => setCreating('single')}>
                {t('tickets.toolbar.single')}
              </Button>
              <Button variant="contained" color="secondary" endIcon={<GroupAddIcon />} onClick={() => setCreating('massive')}>
                {t('tickets.toolbar.massive')}
              </Button>
            </>
          }
        />
      )}
      <TicketDialog ticketId={openId} mode="work" onClose={() => setOpenId(null)} onOpen={setOpenId} />
      {course && creating === 'single' && <CreateSingleDialog course={course} onClose={() => setCreating(null)} />}
      {course && creating === 'massive' && <CreateMassiveDialog course={course} onClose={() => setCreating(null)} />}
    </PageCard>
  );
}

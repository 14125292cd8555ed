import AddIcon from '@mui/icons-material/Add';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Resource } from '@sigaf/contract';
import { CourseSelector, type CourseOption } from '../../components/CourseSelector';
import { PageCard } from '../../components/PageCard';
import { getData } from '../../lib/api';
import { useCurrentCourse } from '../../lib/rememberedCourse';
import { readTicketLink, ticketListHref, type TicketLinkFilters } from '../../lib/ticketLink';
import type { TicketFilterValues } from './api';
import { CreateMassiveDialog, CreateSingleDialog } from './CreateTickets';
import { TicketDialog, useTicketParam } from './TicketDialog';
import { TicketsTable } from './TicketsTable';

/** Ticket (docs/development/screens.md#ticket): one course's tickets, worked one by one or in bulk. */
export default function TicketPage() {
  const { t } = useTranslation();
  const [course, choose] = useCurrentCourse();
  const [creating, setCreating] = useState<'single' | 'massive' | null>(null);
  const [openId, setOpenId] = useTicketParam();
  // A link such as /my/ticket?course=3&status=open&source_ticket_id=2 (from the dashboard).
  const [params, setParams] = useSearchParams();
  const link = useMemo(() => readTicketLink(params), [params]);
  // The course and filters are kept in the address (replacing the entry: Back returns to them).
  // The table is rebuilt only for an address this page did not write itself (a dashboard link).
  const written = useRef<string | null>(null);
  const tableKey = useRef(link.key);
  if (link.key !== written.current) tableKey.current = link.key;
  const writeAddress = (courseId: number | null, filters: TicketLinkFilters = {}) => {
    const q = new URLSearchParams(courseId ? ticketListHref(courseId, filters).split('?')[1] : '');
    const ticket = params.get('ticket');
    if (ticket) q.set('ticket', ticket);
    written.current = readTicketLink(q).key;
    setParams(q, { replace: true });
  };
  const chooseCourse = (c: CourseOption | null) => {
    choose(c);
    writeAddress(c?.id ?? null);
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per course in the address
  }, [link.courseId]);

  return (
    <PageCard title={t('nav.ticket')} icon={<ConfirmationNumberIcon />}>
      <Paper variant="outlined" sx={{ p: 2, mb: 2, bgcolor: 'grey.50' }}>
        <CourseSelector value={course} onChange={chooseCourse} />
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
          key={tableKey.current}
          initialFilters={
            link.courseId === course.id ? (link.filters as Partial<TicketFilterValues>) : undefined
          }
          onFiltersChange={(f) => writeAddress(course.id, f as TicketLinkFilters)}
          courseId={course.id}
          onOpen={setOpenId}
          defaultStatus="open"
          perPage={25}
          label={t('tickets.gridLabel', { course: course.description })}
          actions={
            <>
              <Button
                variant="contained"
                endIcon={<AddIcon />}
                onClick={() => setCreating('single')}
              >
                {t('tickets.toolbar.single')}
              </Button>
              <Button
                variant="contained"
                color="secondary"
                endIcon={<GroupAddIcon />}
                onClick={() => setCreating('massive')}
              >
                {t('tickets.toolbar.massive')}
              </Button>
            </>
          }
        />
      )}
      <TicketDialog
        ticketId={openId}
        mode="work"
        onClose={() => setOpenId(null)}
        onOpen={setOpenId}
      />
      {course && creating === 'single' && (
        <CreateSingleDialog course={course} onClose={() => setCreating(null)} />
      )}
      {course && creating === 'massive' && (
        <CreateMassiveDialog course={course} onClose={() => setCreating(null)} />
      )}
    </PageCard>
  );
}

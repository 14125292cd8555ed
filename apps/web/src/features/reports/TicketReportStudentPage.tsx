import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import SearchIcon from '@mui/icons-material/Search';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Chip,
  InputAdornment,
  LinearProgress,
  Pagination,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { chileDateTime, type StudentTicketsSummary } from '@sigaf/contract';
import { StateChip } from '../../components/StateChip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard';
import { ApiError } from '../../lib/api';
import { exports, useStudentTickets, useStudentTicketsOf } from './api';
import { ChooseCourse, CourseBar, DownloadButton, useReportCourse } from './shared';
import { useCatalogueText } from '../../lib/catalogue';

/** A student's tickets and their attempts, read when the panel opens. */
function StudentTicketList({ courseId, enrolmentId }: { courseId: number; enrolmentId: number }) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const tickets = useStudentTicketsOf(courseId, enrolmentId);
  if (tickets.isPending) return <LinearProgress aria-label={t('app.loading')} />;
  if (tickets.isError)
    return (
      <Alert severity="error">
        {tickets.error instanceof ApiError ? tickets.error.message : t('common.loadError')}
      </Alert>
    );
  return (
    <>
      {tickets.data.map((tk) => (
        <Paper key={tk.id} variant="outlined" sx={{ p: 1.5, mb: 1.5 }}>
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mb: 1 }}
          >
            <Typography sx={{ fontWeight: 700 }}>{tk.ticketCode}</Typography>
            <StateChip
              kind="ticketStatus"
              stateKey={tk.closed ? 'closed' : 'open'}
              label={tk.status}
            />
            <StateChip
              kind="priority"
              stateKey={tk.priorityKey}
              label={t('reports.student.priority', { priority: cat(tk.priority) })}
            />
            <Typography variant="body2">
              {[cat(tk.motive), cat(tk.type), tk.operator ?? t('reports.student.unassigned')].join(
                ' · ',
              )}
            </Typography>
            <Box sx={{ flex: 1 }} />
            <Typography variant="caption" color="text.secondary">
              {t('reports.student.created', { date: chileDateTime(tk.createdAt) })}
              {tk.closingDate
                ? ` · ${t('reports.student.closed', { date: chileDateTime(tk.closingDate) })}`
                : ''}
            </Typography>
          </Stack>
          {tk.attempts.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('reports.student.noAttempts')}
            </Typography>
          ) : (
            <Table
              size="small"
              aria-label={t('reports.student.attemptsOf', { code: tk.ticketCode })}
            >
              <TableHead>
                <TableRow>
                  {(['n', 'date', 'outcome', 'operator', 'comment'] as const).map((k) => (
                    <TableCell key={k} sx={{ fontWeight: 700, color: 'secondary.main' }}>
                      {t(`reports.student.col.${k}`)}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {tk.attempts.map((a, n) => (
                  <TableRow key={a.id}>
                    <TableCell>{n + 1}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {chileDateTime(a.createdAt)}
                    </TableCell>
                    <TableCell>
                      <StateChip kind="attemptResult" stateKey={a.outcomeKey} label={a.outcome} />
                    </TableCell>
                    <TableCell>{a.operator}</TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{a.comment}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Paper>
      ))}
    </>
  );
}

function StudentPanel({ courseId, student }: { courseId: number; student: StudentTicketsSummary }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const name = [student.name, student.lastName, student.motherLastName].filter(Boolean).join(' ');
  return (
    <Accordion
      disableGutters
      expanded={open}
      onChange={(_e, v) => setOpen(v)}
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={{ xs: 0.5, sm: 2 }}
          sx={{ alignItems: { sm: 'center' }, width: '100%' }}
        >
          <Typography sx={{ fontWeight: 600, minWidth: 120 }}>{student.rut}</Typography>
          <Typography sx={{ flex: 1 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {student.classroom ?? t('reports.student.noClassroom')}
          </Typography>
          <Chip
            size="small"
            color="primary"
            label={t('reports.student.ticketCount', { count: student.tickets })}
          />
          <Chip
            size="small"
            variant="outlined"
            label={t('reports.student.openCount', { count: student.openTickets })}
          />
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        {open && <StudentTicketList courseId={courseId} enrolmentId={student.enrolmentId} />}
      </AccordionDetails>
    </Accordion>
  );
}

function StudentTickets({ courseId, search }: { courseId: number; search: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  // A new course or search starts again on the first page.
  useEffect(() => setPage(1), [courseId, search]);
  const list = useStudentTickets(courseId, search, page);
  const students = list.data?.students ?? [];
  const meta = list.data?.meta;
  return (
    <Box>
      {list.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {list.isError && (
        <Alert severity="error">
          {list.error instanceof ApiError ? list.error.message : t('common.loadError')}
        </Alert>
      )}
      {list.isSuccess && meta && (
        <Typography role="status" sx={{ fontWeight: 600, mb: 1 }}>
          {t('reports.student.found', { count: meta.total })}
        </Typography>
      )}
      {list.isSuccess && meta?.total === 0 && search && (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {t('reports.student.noneFound')}
        </Typography>
      )}
      {students.map((s) => (
        <StudentPanel key={s.enrolmentId} courseId={courseId} student={s} />
      ))}
      {meta && meta.lastPage > 1 && (
        <Stack sx={{ alignItems: 'center', mt: 2 }}>
          <Pagination
            count={meta.lastPage}
            page={meta.page}
            onChange={(_e, p) => setPage(p)}
            color="primary"
            showFirstButton
            showLastButton
            getItemAriaLabel={(type, p) => t(`reports.student.pageAria.${type}`, { page: p })}
          />
        </Stack>
      )}
    </Box>
  );
}

/** Reporte de ticket por alumno: every student's tickets and contact attempts, searchable, as .xlsx or PDF. */
export default function TicketReportStudentPage() {
  const { t } = useTranslation();
  const [course, setCourse] = useReportCourse();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 350);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <PageCard
      title={t('reports.student.title')}
      icon={<PersonSearchIcon />}
      actions={
        course && (
          <>
            <DownloadButton
              kind="xlsx"
              label={t('reports.exportXlsx')}
              run={() => exports.studentTickets(course.id, search)}
            />
            <DownloadButton
              kind="pdf"
              label={t('reports.pdf')}
              run={() => exports.studentTicketsPdf(course.id, search)}
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
          <TextField
            label={t('reports.student.search')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{
              htmlInput: { maxLength: 100 },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ mb: 2, maxWidth: 420 }}
          />
          <StudentTickets courseId={course.id} search={search} />
        </>
      )}
    </PageCard>
  );
}

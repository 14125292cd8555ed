import type { AttemptOutcome, OutcomeReport, OutcomeSimilarSuggestions } from '@sigaf/contract';
import { useQuery } from '@tanstack/react-query';
import { download, getData } from '../../lib/api';

/** Calls of the contact outcomes and the Efectividad screen (docs/usage/efectividad.md); the server's routes are in apps/server/src/modules/outcomes. */

export interface TicketOutcomes {
  attempts: AttemptOutcome[];
  /** The student box; `scope`: the contacts on the caller's own tickets (an operator) or every contact in the course. */
  student: {
    scope: 'own' | 'course';
    attempts: number;
    settled7: number;
    accessed7: number;
    last: AttemptOutcome | null;
  };
}

/** The outcome of each attempt of a ticket and the student's summary; refreshed with the ticket's attempts (`version`). */
export function useTicketOutcomes(ticketId: number | undefined, version = 0) {
  return useQuery({
    queryKey: ['outcomes', 'ticket', ticketId, version],
    enabled: ticketId !== undefined,
    queryFn: ({ signal }) =>
      getData<TicketOutcomes>(`/api/v2/tickets/${ticketId}/outcomes`, { signal }),
    staleTime: 60_000,
  });
}

export interface ReportParams {
  courseId: number | null;
  from: string;
  to: string;
  /** An operator's contacts (administrators only); null: everybody's. */
  userId?: number | null;
}

const reportQuery = (p: ReportParams) => ({
  course_id: p.courseId ?? undefined,
  user_id: p.userId ?? undefined,
  from: p.from || undefined,
  to: p.to || undefined,
});

export function useOutcomeReport(p: ReportParams) {
  return useQuery({
    queryKey: ['outcomes', 'report', p.courseId, p.from, p.to, p.userId ?? null],
    queryFn: ({ signal }) =>
      getData<OutcomeReport>('/api/v2/outcomes/report', { signal, query: reportQuery(p) }),
    staleTime: 60_000,
  });
}

export const downloadOutcomeReport = (p: ReportParams, lang: 'es' | 'en') =>
  download(
    '/api/v2/outcomes/report/excel',
    { ...reportQuery(p), lang },
    lang === 'en' ? 'effectiveness.xlsx' : 'efectividad.xlsx',
  );

/** Mi agenda's suggestions for one course's similar students (by days without access). */
export const similarQuery = (courseId: number) => ({
  queryKey: ['outcomes', 'suggestion', courseId, 'similar'],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    getData<OutcomeSimilarSuggestions>(`/api/v2/outcomes/suggestion/${courseId}/similar`, {
      signal,
    }),
  staleTime: 5 * 60_000,
});

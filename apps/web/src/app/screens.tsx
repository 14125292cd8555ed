import type { SvgIconComponent } from '@mui/icons-material';
import AssessmentIcon from '@mui/icons-material/Assessment';
import EventNoteIcon from '@mui/icons-material/EventNote';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import GroupsIcon from '@mui/icons-material/Groups';
import InsightsIcon from '@mui/icons-material/Insights';
import { resourceByKey, SCREEN_ROUTES } from '@sigaf/contract';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/StatusPages';
import { lazyScreen } from './lazy';

/** Icons of the flat menu entries. */
export const SCREEN_ICONS: Record<string, SvgIconComponent> = {
  agenda: EventNoteIcon,
  dashboard: InsightsIcon,
  followUp: GroupsIcon,
  ticket: ConfirmationNumberIcon,
  ticketReport: AssessmentIcon,
};

/**
 * Screens with their own page module. Every other maintained resource gets the generic
 * maintenance screen from its declaration; anything else is honestly "coming soon".
 */
const PAGES: Record<string, () => Promise<{ default: ComponentType }>> = {
  loadStudents: () => import('../features/students/LoadStudentsPage'),
  buildClassrooms: () => import('../features/students/BuildClassroomsPage'),
  managementStudent: () => import('../features/students/ManageStudentsPage'),
  agenda: () => import('../features/agenda/AgendaPage'),
  ticket: () => import('../features/tickets/TicketPage'),
  manageTicket: () => import('../features/tickets/ManageTicketPage'),
  blockingTicket: () => import('../features/tickets/BlockingTicketPage'),
  followUp: () => import('../features/follow-up/FollowUpPage'),
  activity: () => import('../features/moodle/ActivityPage'),
  dashboard: () => import('../features/dashboard/DashboardPage'),
  ticketReport: () => import('../features/reports/TicketReportPage'),
  ticketReportStudent: () => import('../features/reports/TicketReportStudentPage'),
  followStudentReport: () => import('../features/reports/FollowStudentReportPage'),
};

const ResourcePage = lazyScreen(() => import('../features/maintenance/ResourcePage'));

function comingSoon(key: string): ComponentType {
  return function Soon() {
    const { t } = useTranslation();
    return <ComingSoon title={t(`nav.${key}`)} />;
  };
}

export const SCREEN_COMPONENTS: Record<string, ComponentType> = Object.fromEntries(
  SCREEN_ROUTES.map((s) => {
    const page = PAGES[s.key];
    if (page) return [s.key, lazyScreen(page)];
    if (s.group === 'mantenedor' && resourceByKey(s.key)) return [s.key, () => <ResourcePage resourceKey={s.key} />];
    return [s.key, comingSoon(s.key)];
  }),
);

import { SCREEN_ROUTES } from '@sigaf/contract';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../components/StatusPages';
import { HomeScreen, lazyScreen, Shell, type LazyScreen } from './lazy';

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
  effectiveness: () => import('../features/outcomes/EffectivenessPage'),
  ticketReport: () => import('../features/reports/TicketReportPage'),
  ticketReportStudent: () => import('../features/reports/TicketReportStudentPage'),
  followStudentReport: () => import('../features/reports/FollowStudentReportPage'),
};

const MaintenanceScreen = lazyScreen(() => import('../features/maintenance/MaintenanceScreen'));

function comingSoon(key: string): ComponentType {
  return function Soon() {
    const { t } = useTranslation();
    return <ComingSoon title={t(`nav.${key}`)} />;
  };
}

const LAZY_PAGES: Record<string, LazyScreen<object>> = Object.fromEntries(
  Object.entries(PAGES).map(([key, load]) => [key, lazyScreen(load)]),
);

export const SCREEN_COMPONENTS: Record<string, ComponentType> = Object.fromEntries(
  SCREEN_ROUTES.map((s) => {
    const page = LAZY_PAGES[s.key];
    if (page) return [s.key, page];
    if (s.group === 'mantenedor') return [s.key, () => <MaintenanceScreen screenKey={s.key} />];
    return [s.key, comingSoon(s.key)];
  }),
);

/** Screens that ask for their first render's data while their code loads (see preloadSignedIn). */
const PREFETCH: Record<string, () => Promise<{ prefetch(): void }>> = {
  dashboard: () => import('../features/dashboard/prefetch'),
};

/**
 * Loads the signed-in application and the screen of a /my address (its home page for /my), so
 * they render at once when the address is shown; a screen without a module of its own loads
 * nothing more. With `prefetch` (the page is opened at that address with a stored token), a
 * screen listed in PREFETCH asks for its first render's data at the same time.
 */
export function preloadSignedIn(pathname: string, { prefetch = false } = {}): Promise<unknown> {
  const path = pathname.replace(/^\/my\/?/, '').replace(/\/+$/, '');
  const screen = SCREEN_ROUTES.find((s) => s.path === path);
  const page =
    path === ''
      ? HomeScreen
      : screen &&
        (LAZY_PAGES[screen.key] ?? (screen.group === 'mantenedor' ? MaintenanceScreen : undefined));
  const data = prefetch && screen && PREFETCH[screen.key]?.().then((m) => m.prefetch());
  return Promise.all([Shell.preload(), page?.preload(), data]);
}

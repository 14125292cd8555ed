import path from 'node:path';
import { demoRequested, type Config } from './config.js';
import type { Database } from './db/database.js';
import { AuditRepository } from './modules/audit/repository.js';
import { TokenRepository } from './modules/auth/repository.js';
import { AuthService } from './modules/auth/service.js';
import { UserRepository } from './modules/users/repository.js';
import { UserService } from './modules/users/service.js';
import { CatalogueRepository } from './modules/catalogs/repository.js';
import { CatalogueService } from './modules/catalogs/service.js';
import { CategoryRepository } from './modules/categories/repository.js';
import { CategoryService } from './modules/categories/service.js';
import { ActivityRepository, CourseRepository } from './modules/courses/repository.js';
import { ActivityService, CourseService } from './modules/courses/service.js';
import { StudentImporter } from './modules/students/import.js';
import { EnrolmentRepository, StudentRepository } from './modules/students/repository.js';
import { EnrolmentService, StudentService } from './modules/students/service.js';
import { TicketDetailRepository } from './modules/tickets/detail-repository.js';
import { TicketFilterRepository } from './modules/tickets/filter-repository.js';
import { TicketLockRepository } from './modules/tickets/lock-repository.js';
import { TicketRepository } from './modules/tickets/repository.js';
import { DashboardRepository } from './modules/dashboard/repository.js';
import { StudentFiguresRepository } from './modules/dashboard/student-figures.js';
import { DashboardService } from './modules/dashboard/service.js';
import { FollowUpRepository } from './modules/follow-up/repository.js';
import { FollowUpService } from './modules/follow-up/service.js';
import { CurrentCourseService } from './modules/users/current-course.js';
import { SetupService } from './modules/setup/service.js';
import { TicketAccess } from './modules/tickets/access.js';
import { OutcomeService } from './modules/outcomes/service.js';
import { TicketDetailService } from './modules/tickets/detail-service.js';
import { TicketFilterService } from './modules/tickets/filter-service.js';
import { TicketLockService } from './modules/tickets/lock-service.js';
import { TicketService } from './modules/tickets/service.js';
import { JobQueue } from './jobs/queue.js';
import { JobHandlers } from './jobs/worker.js';
import { IdempotencyRepository } from './modules/idempotency/repository.js';
import { IdempotencyService } from './modules/idempotency/service.js';
import { MailRepository } from './modules/mail/repository.js';
import { MailFileService } from './modules/mail/files.js';
import { MAIL_SEND_TIMEOUT_MS, MailService } from './modules/mail/service.js';
import { MailTemplateService } from './modules/mail/templates.js';
import { MoodleSyncRepository } from './modules/moodle-sync/repository.js';
import { MoodleConnectionService } from './modules/moodle-sync/connection.js';
import { MoodleSyncService } from './modules/moodle-sync/service.js';
import { MoodleImportRepository, MoodleImportService } from './modules/moodle-sync/import.js';
import { MoodlePushRepository, MoodlePushService } from './modules/moodle-sync/push.js';
import { createTransport } from './modules/mail/transport.js';
import { ReminderRepository } from './modules/reminders/repository.js';
import { ReminderService } from './modules/reminders/service.js';
import { AgendaRepository } from './modules/agenda/repository.js';
import { AgendaService } from './modules/agenda/service.js';
import { AtRiskTally } from './kept/at-risk-tally.js';
import { FiguresKeeper } from './kept/figures-keeper.js';
import type { ClockLogger } from './jobs/clock.js';
import { AnswerCache } from './modules/answers/cache.js';
import { AnswerVersionRepository } from './modules/answers/repository.js';

/** The composition root: repositories over the database, services over repositories. */
export function createServices(db: Database, config: Config, log?: ClockLogger) {
  const repos = {
    audit: new AuditRepository(db),
    tokens: new TokenRepository(db),
    users: new UserRepository(db),
    catalogs: new CatalogueRepository(db),
    categories: new CategoryRepository(db),
    courses: new CourseRepository(db),
    activities: new ActivityRepository(db),
    students: new StudentRepository(db),
    enrolments: new EnrolmentRepository(db),
    tickets: new TicketRepository(db),
    ticketDetails: new TicketDetailRepository(db),
    ticketLocks: new TicketLockRepository(db),
    ticketFilters: new TicketFilterRepository(db),
    dashboard: new DashboardRepository(db),
    studentFigures: new StudentFiguresRepository(db),
    mail: new MailRepository(db),
  };
  const ticketAccess = new TicketAccess(repos.tickets);
  const tickets = new TicketService(
    db,
    repos.tickets,
    repos.ticketLocks,
    repos.audit,
    ticketAccess,
  );
  const followUpRepo = new FollowUpRepository(db, repos.studentFigures);
  const followUp = new FollowUpService(followUpRepo, repos.audit);
  // Background jobs: the queue, and the handlers a JobWorker (main.ts) runs by type.
  const jobs = { queue: new JobQueue(db), handlers: new JobHandlers() };
  const mailTransport = createTransport({
    smtpUrl: config.SMTP_URL,
    rejectUnauthorized: config.SMTP_TLS_REJECT_UNAUTHORIZED,
    outboxDir: path.join(config.DATA_DIR, 'outbox'),
    maxConnections: config.JOBS_CONCURRENCY,
  });
  const mailFiles = new MailFileService(repos.mail, jobs.queue, config);
  mailFiles.registerJobs(jobs.handlers);
  // A message left 'sending' by a job the worker recovered as stale (its process died) is no
  // longer in flight: it may be taken again once the job is stale, not only after the send timeout.
  const mail = new MailService(
    db,
    repos.mail,
    repos.tickets,
    repos.ticketDetails,
    ticketAccess,
    jobs.queue,
    mailTransport,
    mailFiles,
    config,
    {
      busyMs: Math.min(MAIL_SEND_TIMEOUT_MS, config.JOBS_STALE_MS),
    },
  );
  mail.registerJobs(jobs.handlers);
  const moodleSyncRepository = new MoodleSyncRepository(db);
  const moodleConnection = new MoodleConnectionService(moodleSyncRepository, repos.audit, config);
  const moodleSync = new MoodleSyncService(
    db,
    moodleSyncRepository,
    repos.audit,
    jobs.queue,
    moodleConnection,
    config,
  );
  moodleSync.registerJobs(jobs.handlers);
  const moodlePush = new MoodlePushService(
    db,
    new MoodlePushRepository(db),
    moodleConnection,
    repos.audit,
    jobs.queue,
    config,
  );
  moodlePush.registerJobs(jobs.handlers);
  const reminders = new ReminderService(
    new ReminderRepository(db),
    repos.tickets,
    repos.users,
    ticketAccess,
    repos.audit,
  );
  const answerVersions = new AnswerVersionRepository(db);
  const moodleImport = new MoodleImportService(
    new MoodleImportRepository(db),
    moodleConnection,
    repos.audit,
  );
  const agendaRepo = new AgendaRepository(db, followUpRepo);
  const atRiskTally = new AtRiskTally(
    () => agendaRepo.atRiskByOperator(),
    config.WORKLOAD_AT_RISK_SECONDS,
    log,
    Date.now,
    () => agendaRepo.lastSyncFinishedAt(),
  );
  // A ticket saved with another operator, by any route, moves its at-risk student: counted again at the next read.
  tickets.onReassigned = () => atRiskTally.forget();
  const auth = new AuthService(config, repos.users, repos.tokens, repos.audit);
  return {
    db,
    config,
    repos,
    answers: new AnswerCache(answerVersions, config.ANSWER_CACHE_MB * 1024 * 1024),
    auth,
    users: new UserService(repos.users, repos.tokens, repos.audit, auth, config.DATA_DIR),
    catalogs: new CatalogueService(repos.catalogs, repos.audit),
    setup: new SetupService(db),
    currentCourse: new CurrentCourseService(
      repos.users,
      new CourseService(repos.courses, repos.audit, config.APP_SECRET),
      followUp,
    ),
    categories: new CategoryService(repos.categories, repos.audit),
    courses: new CourseService(repos.courses, repos.audit, config.APP_SECRET),
    activities: new ActivityService(repos.activities, repos.audit),
    students: new StudentService(repos.students, repos.audit),
    enrolments: new EnrolmentService(repos.enrolments, repos.audit),
    studentImport: new StudentImporter(db, repos.students, repos.enrolments),
    tickets,
    ticketDetails: new TicketDetailService(
      db,
      repos.ticketDetails,
      repos.tickets,
      tickets,
      repos.ticketLocks,
    ),
    ticketLocks: new TicketLockService(
      repos.ticketLocks,
      repos.tickets,
      ticketAccess,
      config.LOCK_TTL_MINUTES,
    ),
    ticketFilters: new TicketFilterService(repos.ticketFilters),
    dashboard: new DashboardService(repos.dashboard, repos.studentFigures, followUp),
    figuresKeeper: new FiguresKeeper(repos.studentFigures, log),
    followUp,
    jobs,
    mail,
    mailFiles,
    mailTemplates: new MailTemplateService(repos.mail),
    moodleConnection,
    moodleSync,
    moodlePush,
    moodleImport,
    reminders,
    agenda: new AgendaService(agendaRepo, reminders, tickets, repos.audit, atRiskTally),
    outcomes: new OutcomeService(db, ticketAccess, demoRequested(config)),
    /** Sends made once (Idempotency-Key, or the same content within seconds). */
    sends: new IdempotencyService(new IdempotencyRepository(db)),
  };
}

export type Services = ReturnType<typeof createServices>;

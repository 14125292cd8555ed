import type { ColumnType, Generated } from 'kysely';

/** Kysely table types for the schema of migrations/. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp with a database default: optional on insert. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Numeric = ColumnType<number, number | string, number | string>;

interface Timestamps {
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CatalogueTable extends Timestamps {
  id: Generated<number>;
  key: string | null;
  description: string;
}

export interface PlatformTable extends CatalogueTable {
  status: Generated<number>;
  url: string | null;
  token_encrypted: string | null;
}

export interface RegionTable {
  id: Generated<number>;
  ordinal: number;
  name: string;
}

export interface UserTable extends Timestamps {
  id: Generated<number>;
  rut: string | null;
  name: string;
  phone: string | null;
  mobile: string | null;
  email: string;
  password: string;
  is_first_login: Generated<number>;
  role_id: number;
  deleted_at: Timestamp | null;
  /** The course the person's screens open on (migration 0033). */
  current_course_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AccessTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
}

export interface LoginAttemptTable {
  id: Generated<number>;
  email: string;
  ip: string;
  success: boolean;
  created_at: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  changes: unknown;
  ip: string | null;
  created_at: CreatedAt;
}

export interface JobTable extends Timestamps {
  id: Generated<number>;
  type: string;
  payload: unknown;
  status: Generated<'queued' | 'running' | 'done' | 'failed' | 'cancelled'>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: DefaultTimestamp;
  locked_at: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  progress: unknown;
  result: unknown;
  unique_key: string | null;
}

export interface CategoryTable extends Timestamps {
  id: Generated<number>;
  description: string;
  platform_id: number;
  id_category_moodle: number | null;
  category_code: string;
  status: Generated<number>;
}

export interface CourseTable extends Timestamps {
  id: Generated<number>;
  description: string;
  email: string | null;
  password_encrypted: string | null;
  id_course_moodle: number | null;
  category_id: number;
  status: Generated<number>;
  last_sync_at: Timestamp | null;
}

export interface ActivityTable extends Timestamps {
  id: Generated<number>;
  description: string;
  type: string | null;
  section_id: number | null;
  weighing: ColumnType<number, number | string | undefined, number | string>;
  id_activity_moodle: number | null;
  course_id: number;
  /** Deleted in Moodle: kept for history, out of progress. */
  removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Hidden in Moodle (visible: 0 in the course contents). */
  hidden: Generated<boolean>;
  /**
   * Missing from every Moodle list while the token's user may not be able to see hidden
   * activities (0045): since when. Deleted or hidden, SIGAF cannot tell; still in progress.
   */
  moodle_unseen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Left out of progress and pending counts by staff. */
  excluded_from_progress: Generated<boolean>;
  /** The Moodle section the activity sits in (course contents), as Moodle names it. */
  moodle_section: ColumnType<string | null, string | null | undefined, string | null>;
  /** The section the sync proposes while staff have not decided (null once decided or with nothing to propose). */
  proposed_section_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A course's choice: activities of this Moodle section go to this SIGAF section. */
export interface MoodleSectionMapTable extends Timestamps {
  id: Generated<number>;
  course_id: number;
  moodle_section: string;
  section_id: number;
  created_by: number | null;
}

export interface RegisteredUserTable extends Timestamps {
  id: Generated<number>;
  rut: string;
  name: string;
  last_name: string;
  mother_last_name: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  address: string | null;
  city: string | null;
  region: string | null;
  rbd_school: string | null;
  name_school: string | null;
  city_school: string | null;
  region_school: string | null;
  phone_school: string | null;
  id_registered_moodle: number | null;
  rut_registered_moodle: string | null;
  name_registered_moodle: string | null;
  email_registered_moodle: string | null;
  status_moodle: string | null;
}

export interface CourseRegisteredUserTable extends Timestamps {
  id: Generated<number>;
  course_id: number;
  registered_user_id: number;
  profile_id: number;
  classroom_id: number | null;
  final_status_id: number | null;
  final_qualification: Numeric | null;
  final_qualification_moodle: string | null;
  last_access_registered_moodle: Timestamp | null;
  last_access_text: string | null;
  is_sincronized: Generated<boolean>;
  /** The enrolment is suspended in Moodle (present in its participants, absent from its grade report for everyone). */
  moodle_suspended: Generated<boolean>;
  /** Matched in the Moodle course at least once (a push does not re-enrol it unless asked). */
  moodle_seen: Generated<boolean>;
  /** Activo / Renuncia en curso / Renunciado, from the course's Renuncia activity in Moodle (0004). */
  status_moodle: string | null;
}

export interface ActivityCourseUserTable extends Timestamps {
  id: Generated<number>;
  activity_id: number;
  course_registered_user_id: number;
  status_moodle: string | null;
  qualification_moodle: string | null;
  completion_state: number | null;
  /** numeric(10,5): Moodle's precision. */
  grade: Numeric | null;
}

export interface TicketCodeSequenceTable {
  prefix: string;
  last_value: number;
}

export interface TicketTable extends Timestamps {
  id: Generated<number>;
  course_registered_user_id: number;
  course_id: number;
  ticket_code: string;
  type_ticket_id: number;
  status_ticket_id: number;
  priority_ticket_id: number;
  source_ticket_id: number;
  motive_ticket_id: number;
  user_create_id: number;
  user_assigned_id: number | null;
  closing_date: Timestamp | null;
  /** The newest contact attempt's time, kept by triggers (0018). */
  last_attempt_at: ColumnType<Date | null, never, never>;
  version: Generated<number>;
}

export interface TicketDetailTable extends Timestamps {
  id: Generated<number>;
  ticket_id: number;
  user_created_id: number;
  status_detail_ticket_id: number;
  comment: Generated<string>;
  /** The ticket's course, set by a trigger (0008). */
  course_id: Generated<number>;
  /** How the contact was made (0044): null where the writer did not say (inferred from the ticket's type). */
  medium: ColumnType<string | null, string | null | undefined, string | null>;
  /** outgoing or incoming (0044), null where not said. */
  direction: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Ticket counts per course and dimension, kept by triggers on tickets (0008). */
export interface TicketCountTable {
  course_id: number;
  dim: number;
  value: number;
  status_ticket_id: number;
  n: number;
}

/** Which courses' student figures must be recomputed (0008). */
export interface CourseStatsStateTable {
  course_id: number;
  dirty: Generated<boolean>;
  refreshed_at: Timestamp | null;
}

/** The student figures' population of a course, one row per enrolment (0008). */
export interface CourseEnrolmentStatTable {
  course_id: number;
  enrolment_id: number;
  registered_user_id: number;
  classroom_id: number | null;
  form: string;
  stage: number;
  last_access: Timestamp | null;
}

/** A student enrolment's follow-up figures from Moodle and the student's record, recomputed with the course's figures (0015). */
export interface CourseFollowUpRowTable {
  course_id: number;
  enrolment_id: number;
  registered_user_id: number;
  classroom_id: number | null;
  rut: string;
  name: string;
  last_name: string;
  mother_last_name: string | null;
  email: string | null;
  phone: string | null;
  form: string;
  stage: number;
  last_access: Timestamp | null;
  last_access_text: string | null;
  synced: boolean;
  suspended: boolean;
  graded: number;
  expected: number;
  /** The student's last contact attempt in the course, following enrolment_ticket_counts by trigger (0020). */
  last_attempt_at: Timestamp | null;
  /** The student's folded name, registered_users.search_name (0022). */
  search_name: string | null;
}

/** Each enrolment's tickets and open tickets, kept by triggers on tickets (0015). */
export interface EnrolmentTicketCountTable {
  enrolment_id: number;
  total: number;
  open: number;
  last_attempt_at: Timestamp | null;
  course_id: number | null;
}

/** Activity progress per course, classroom (0: none), activity, test form and withdrawal stage (0008). */
export interface CourseProgressStatTable {
  course_id: number;
  classroom_id: number;
  activity_id: number;
  form: string;
  stage: number;
  students: number;
  graded: number;
  completed: number;
}

export interface LogEditingTicketTable extends Timestamps {
  id: Generated<number>;
  ticket_id: number;
  user_id: number;
  expires_at: Timestamp;
}

export interface TicketHistoryTable {
  id: Generated<number>;
  ticket_id: number;
  user_id: number | null;
  action: string;
  changes: unknown;
  created_at: CreatedAt;
}

export interface TicketFilterPresetTable extends Timestamps {
  id: Generated<number>;
  user_id: number;
  name: string;
  filters: unknown;
}

export interface MailAttachmentTable {
  id: Generated<number>;
  stored_name: string;
  original_name: string;
  size: number;
  mime: string;
  sha256: string;
  uploaded_by: number | null;
  created_at: CreatedAt;
  /** The file was removed by the clean-up (0007); the row stays for the outbox. */
  purged_at: ColumnType<Date | null, never, Date | string | null>;
}

export interface MailMessageTable extends Timestamps {
  id: Generated<number>;
  ticket_id: number | null;
  course_id: number | null;
  enrolment_id: Generated<number | null>;
  to_address: string;
  cc: ColumnType<string[], string | undefined, string>;
  from_address: string;
  reply_to: string | null;
  subject: string;
  html: string;
  text: string;
  status: Generated<'queued' | 'sending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  message_id: string;
  sent_at: Timestamp | null;
  created_by: number | null;
}

export interface MailMessageAttachmentTable {
  mail_message_id: number;
  attachment_id: number;
  position: Generated<number>;
}

export interface MailTemplateTable extends Timestamps {
  id: Generated<number>;
  course_id: number;
  name: string;
  subject: string;
  html: string;
  created_by: number | null;
}

/** The tutors of a classroom (0005): a user with role tutor follows only these classrooms. */
export interface ClassroomTutorTable {
  course_id: number;
  classroom_id: number;
  user_id: number;
  created_at: CreatedAt;
}

export interface DB {
  roles: CatalogueTable;
  profiles: CatalogueTable;
  classrooms: CatalogueTable;
  final_statuses: CatalogueTable;
  status_tickets: CatalogueTable;
  priority_tickets: CatalogueTable;
  motive_tickets: CatalogueTable;
  status_detail_tickets: CatalogueTable;
  source_tickets: CatalogueTable;
  type_tickets: CatalogueTable;
  sections: CatalogueTable;
  platforms: PlatformTable;
  regions: RegionTable;
  users: UserTable;
  access_tokens: AccessTokenTable;
  login_attempts: LoginAttemptTable;
  audit_log: AuditLogTable;
  jobs: JobTable;
  categories: CategoryTable;
  courses: CourseTable;
  activities: ActivityTable;
  moodle_section_maps: MoodleSectionMapTable;
  registered_users: RegisteredUserTable;
  course_registered_users: CourseRegisteredUserTable;
  activity_course_users: ActivityCourseUserTable;
  ticket_code_sequences: TicketCodeSequenceTable;
  tickets: TicketTable;
  ticket_details: TicketDetailTable;
  ticket_counts: TicketCountTable;
  course_stats_state: CourseStatsStateTable;
  course_progress_stats: CourseProgressStatTable;
  course_enrolment_stats: CourseEnrolmentStatTable;
  course_follow_up_rows: CourseFollowUpRowTable;
  enrolment_ticket_counts: EnrolmentTicketCountTable;
  log_editing_tickets: LogEditingTicketTable;
  ticket_history: TicketHistoryTable;
  ticket_filter_presets: TicketFilterPresetTable;
  mail_attachments: MailAttachmentTable;
  mail_messages: MailMessageTable;
  mail_message_attachments: MailMessageAttachmentTable;
  mail_templates: MailTemplateTable;
  moodle_course_syncs: MoodleCourseSyncTable;
  classroom_tutors: ClassroomTutorTable;
  legacy_alerts: LegacyAlertTable;
  reminders: ReminderTable;
  agenda_course_settings: AgendaCourseSettingsTable;
  user_agenda_settings: UserAgendaSettingsTable;
  moodle_sync_schedule_runs: MoodleSyncScheduleRunTable;
  answer_versions: AnswerVersionTable;
  enrolment_progress_history: EnrolmentProgressHistoryTable;
  outcome_kept_days: OutcomeKeptDayTable;
  outcome_kept_groups: OutcomeKeptGroupTable;
  outcome_stale_days: OutcomeStaleDayTable;
  idempotent_sends: IdempotentSendTable;
  agenda_last_reassignments: AgendaLastReassignmentTable;
}

/** A user's send under a key, with its first answer once made (0041). */
export interface IdempotentSendTable {
  user_id: number;
  key: string;
  fingerprint: string;
  status_code: number | null;
  /** The answer's body as sent (JSON text). */
  response: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** The version of what a course's whole answers read (scope = course id), and of what every course shows (scope 0) (0024). */
export interface AnswerVersionTable {
  scope: number;
  version: ColumnType<string, string, string>;
}

/** One scheduled (nightly) Moodle sync of a course per day (0006). */
export interface MoodleSyncScheduleRunTable {
  course_id: number;
  day: ColumnType<string, string, string>;
  job_id: number | null;
  created_at: CreatedAt;
}

/** The last Moodle synchronisation of a course (0004). */
export interface MoodleCourseSyncTable extends Timestamps {
  course_id: number;
  state: 'queued' | 'running' | 'done' | 'failed';
  scope: string;
  job_id: number | null;
  progress: unknown;
  result: unknown;
  error: string | null;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export type CatalogueTableName =
  | 'roles'
  | 'profiles'
  | 'classrooms'
  | 'final_statuses'
  | 'status_tickets'
  | 'priority_tickets'
  | 'motive_tickets'
  | 'status_detail_tickets'
  | 'source_tickets'
  | 'type_tickets'
  | 'sections';

/** A SIGAF 1.x ticket reminder kept by the legacy import (0011). */
export interface LegacyAlertTable extends Timestamps {
  id: number;
  ticket_id: number | null;
  user_id: number | null;
  legacy_ticket_id: number;
  legacy_user_id: number;
  remind_at: Timestamp | null;
  status_reminder: number;
  status_notification: number;
  comment: string;
}

/** A reminder on a ticket for one operator (0012): pending, done (by hand or by a later attempt) or dismissed. */
export interface ReminderTable {
  id: Generated<number>;
  ticket_id: number;
  user_id: number;
  created_by: number | null;
  due_at: Timestamp;
  comment: Generated<string>;
  state: ColumnType<
    'pending' | 'done' | 'dismissed',
    'pending' | 'done' | 'dismissed' | undefined,
    'pending' | 'done' | 'dismissed'
  >;
  done_at: Timestamp | null;
  done_by: number | null;
  ticket_detail_id: number | null;
  legacy_id: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** The agenda's thresholds and dates of a course (0012). */
export interface AgendaCourseSettingsTable {
  course_id: number;
  contact_days: Generated<number>;
  inactive_days: Generated<number>;
  progress_percent: Generated<number>;
  starts_on: ColumnType<string | null, string | null | undefined, string | null>;
  ends_on: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: DefaultTimestamp;
}

/** A user's agenda settings (0012): the morning digest by e-mail. */
export interface UserAgendaSettingsTable {
  user_id: number;
  morning_digest: Generated<boolean>;
  last_digest_on: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: DefaultTimestamp;
}

/** Each administrator's last reassignment of an operator's work, to undo it (0046). */
export interface AgendaLastReassignmentTable {
  actor_id: number;
  from_user_id: number;
  to_user_id: number;
  ticket_ids: number[];
  reminders: Generated<number>;
  created_at: CreatedAt;
}

/** An enrolment's Moodle figures when a sync found them changed (0035). */
export interface EnrolmentProgressHistoryTable {
  enrolment_id: number;
  recorded_at: DefaultTimestamp;
  /** Percentage of the counting activities graded; null when none counts. */
  progress: number | null;
  last_access: Timestamp | null;
  completed: number;
  grade: Numeric | null;
}

/** A Chilean day whose effectiveness figures are kept (0037). */
export interface OutcomeKeptDayTable {
  day: ColumnType<string, string, string>;
  kept_at: DefaultTimestamp;
}

/** A kept day a write made stale (0043): computed live until the keeper keeps it again. */
export interface OutcomeStaleDayTable {
  day: ColumnType<string, string, string>;
}

/** A kept day's figures of one dimension group, for the organisation (course 0, operator 0), a course or an operator (0037). */
export interface OutcomeKeptGroupTable {
  course_id: number;
  operator_id: number;
  day: ColumnType<string, string, string>;
  dim: string;
  key: string;
  n: number;
  accessed: number;
  gain_n: number;
  gain_sum: ColumnType<string, number | string, number | string>;
  base_n: number;
  base_accessed: number;
  base_gain_n: number;
  base_gain_sum: ColumnType<string, number | string, number | string>;
  /** 0044: every attempt of the group's student-weeks, those "sin datos", those whose medium was inferred. */
  contacts: Generated<number>;
  unknown: Generated<number>;
  inferred: Generated<number>;
  /** 0044: the student-weeks whose stratum has a baseline, their re-engaged, the stratum rates summed and the variance terms. */
  base_matched: Generated<number>;
  base_matched_accessed: Generated<number>;
  base_expected: Generated<number>;
  base_var: Generated<number>;
}

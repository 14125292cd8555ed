/** The local rows a course sync reads (the repository's) and plans changes to (plan.ts). */

export interface LocalEnrolment {
  id: number;
  registered_user_id: number;
  rut: string;
  name: string;
  last_name: string;
  last_access_registered_moodle: Date | null;
  last_access_text: string | null;
  is_sincronized: boolean;
  moodle_suspended: boolean;
  moodle_seen: boolean;
  final_qualification_moodle: string | null;
  status_moodle: string | null;
  id_registered_moodle: number | null;
  rut_registered_moodle: string | null;
  name_registered_moodle: string | null;
  email_registered_moodle: string | null;
  student_status_moodle: string | null;
}

export interface LocalActivity {
  id: number;
  id_activity_moodle: number | null;
  description: string;
  type: string | null;
  section_key: string | null;
  removed_at: Date | null;
  hidden: boolean;
  /** Missing from Moodle's lists, deleted or hidden (cannot be told): since when (null or absent: seen). */
  moodle_unseen_at?: Date | null;
}

export interface LocalResult {
  id: number;
  activity_id: number;
  course_registered_user_id: number;
  status_moodle: string | null;
  qualification_moodle: string | null;
  completion_state: number | null;
  grade: number | null;
}

import type { Asker } from '../../http/envelope.js';
import { relationship, resource } from '../../http/envelope.js';
import type { EnrolmentRow, StudentRow } from './repository.js';
import { lastAccessText, rawClassroom, rawEnrolment, rawEnrolmentStudent } from './raw.js';
import type { EnrolmentService } from './service.js';

export function presentStudent(request: Asker, s: StudentRow) {
  return resource(
    request,
    `/api/v2/registered-users/${s.id}`,
    {
      id: s.id,
      rut: s.rut,
      name: s.name,
      lastName: s.last_name,
      motherLastName: s.mother_last_name,
      email: s.email,
      phone: s.phone,
      mobile: s.mobile,
      address: s.address,
      city: s.city,
      region: s.region,
      rbdSchool: s.rbd_school,
      nameSchool: s.name_school,
      citySchool: s.city_school,
      regionSchool: s.region_school,
      phoneSchool: s.phone_school,
      idRegisteredMoodle: s.id_registered_moodle,
      rutRegisteredMoodle: s.rut_registered_moodle,
      nameRegisteredMoodle: s.name_registered_moodle,
      emailRegisteredMoodle: s.email_registered_moodle,
      statusMoodle: s.status_moodle,
    },
    relationship(request, `/api/v2/course-users/${s.id}/courses`, Number(s.enrolments_count)),
  );
}

export function presentEnrolment(request: Asker, e: EnrolmentRow) {
  return resource(
    request,
    `/api/v2/course-registered-users/${e.id}`,
    {
      id: e.id,
      classroomId: e.classroom_id,
      // Never null: the original client reads `classroom.id` and `classroom.description` of every row.
      classroom: rawClassroom(e),
      profile: { id: e.profile_id, description: e.profile_description, key: e.profile_key },
      finalStatus: e.final_status_id
        ? { id: e.final_status_id, description: e.final_status_description }
        : null,
      finalQualification: e.final_qualification === null ? null : Number(e.final_qualification),
      finalQualificationMoodle: e.final_qualification_moodle,
      lastAccess: e.last_access_registered_moodle
        ? new Date(e.last_access_registered_moodle).toISOString()
        : null,
      lastAccessText: e.last_access_text,
      isSincronized: e.is_sincronized,
      // The original client reads this one camelCase (Gestión de estudiantes, "Ultima conexión").
      lastAccessRegisteredMoodle: lastAccessText(e),
      course: {
        id: e.course_id,
        description: e.course_description,
        id_course_moodle: e.id_course_moodle,
        category_id: e.category_id,
      },
      registeredUser: {
        // The original's raw student (snake_case), which the original client reads and sends back…
        ...rawEnrolmentStudent(e),
        // …and the camelCase names of this API.
        id: e.registered_user_id,
        rut: e.rut,
        name: e.name,
        lastName: e.last_name,
        motherLastName: e.mother_last_name,
        email: e.email,
        mobile: e.mobile,
        phone: e.phone,
        region: e.region,
        city: e.city,
        idRegisteredMoodle: e.id_registered_moodle,
        rutRegisteredMoodle: e.rut_registered_moodle,
      },
      ticketsCount: Number(e.tickets_count),
    },
    relationship(
      request,
      `/api/v2/course-registered-user/${e.id}/tickets`,
      Number(e.tickets_count),
    ),
  );
}

/**
 * Enrolments as the original server gave them (raw snake_case rows with their student, classroom,
 * profile, course and Moodle results: docs/development/original-api.md §2.14 "mapUser fields"), each also
 * carrying this API's resource (`links`, `properties`, `relationships`).
 */
export async function presentRawEnrolments(
  request: Asker,
  enrolments: EnrolmentService,
  rows: EnrolmentRow[],
) {
  const results = await enrolments.activityResults(rows.map((e) => e.id));
  return rows.map((e) => ({
    ...rawEnrolment(e, results.get(e.id)),
    ...presentEnrolment(request, e),
  }));
}

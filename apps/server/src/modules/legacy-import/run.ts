/** The import's steps, table group by table group, in dependency order (catalogues first, alerts last). */
import { normalizeRut, parseRut, formatRut } from '@sigaf/contract';
import { encryptSecret } from '../../lib/crypto.js';
import { lastAccessFromRelative } from './last-access.js';
import type { Column } from './repository.js';
import { CATALOGUES, WALLCLOCK, num, str, RunBase } from './run-base.js';
import { LegacyImportRefused, type ImportReport } from './types.js';

export class Run extends RunBase {
  async all() {
    await this.catalogues();
    await this.staff();
    await this.categories();
    await this.coursesAndActivities();
    await this.studentRows();
    await this.enrolmentRows();
    await this.results();
    for (const course of this.courses) await this.repo.firstProgressPoints(course);
    await this.ticketRows();
    await this.details();
    await this.repo.forgetKeptOutcomes();
    await this.tutors();
    await this.alerts();
    for (const t of [
      'categories',
      'courses',
      'activities',
      'registered_users',
      'course_registered_users',
      'activity_course_users',
      'tickets',
      'ticket_details',
    ]) {
      await this.repo.resetSequence(t);
    }
    await this.repo.continueCodeSequences();
    for (const t of [
      'section_courses',
      'log_editing_tickets',
      'jobs',
      'failed_jobs',
      'ticket_report_excels',
    ]) {
      if (this.present.has(t))
        this.report.notes.push(
          `${t}: no se importa (${t === 'section_courses' ? 'las secciones se asocian a los cursos por sus actividades' : 'datos transitorios o del framework'}).`,
        );
    }
    this.report.notes.push(
      'Las sesiones (oauth_*) no se importan: cada persona vuelve a iniciar sesión con su contraseña de siempre.',
    );
  }

  private async catalogues() {
    for (const table of [...CATALOGUES, 'platforms' as const]) {
      const target = await this.repo.catalogue(table);
      const byDescription = new Map(target.map((r) => [r.description.trim().toLowerCase(), r.id]));
      const map = new Map<number, number>();
      const mapping: ImportReport['catalogues'][string] = [];
      for await (const batch of this.rows(table, ['id', 'description'])) {
        for (const r of batch) {
          const description = String(r.description ?? '').trim();
          let targetId = byDescription.get(description.toLowerCase());
          let created = false;
          if (targetId === undefined && table === 'roles') {
            // Roles decide permissions: an unknown role gets the least privileged staff role.
            targetId = target.find((x) => x.key === 'operator')!.id;
            this.anomaly(
              table,
              [Number(r.id)],
              'unknown_role',
              'sus usuarios quedan como Operador',
              description,
            );
          } else if (targetId === undefined) {
            targetId = await this.repo.addCatalogueValue(
              table,
              description.slice(0, 50) || `Valor ${String(r.id)}`,
            );
            byDescription.set(description.toLowerCase(), targetId);
            created = true;
          }
          map.set(Number(r.id), targetId);
          mapping.push({ legacyId: Number(r.id), description, targetId, created });
          this.report.tables[table]!.imported++;
        }
      }
      if (!map.size) for (const r of target) map.set(r.id, r.id);
      this.cat.set(table, map);
      this.report.catalogues[table] = mapping;
    }
  }

  private async staff() {
    const byEmail = await this.repo.usersByEmail();
    const cols: Column[] = [
      ['rut', 'text'],
      ['name', 'text'],
      ['phone', 'text'],
      ['mobile', 'text'],
      ['email', 'text'],
      ['password', 'text'],
      ['is_first_login', 'int'],
      ['role_id', 'int'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('users', [
      'id',
      'rut',
      'name',
      'phone',
      'mobile',
      'email',
      'password',
      'is_first_login',
      'role_id',
      'created_at',
      'updated_at',
    ])) {
      const fresh: Array<{ legacyId: number; row: Record<string, unknown> }> = [];
      for (const r of batch) {
        const id = Number(r.id);
        const email = String(r.email ?? '')
          .trim()
          .toLowerCase();
        const existing = byEmail.get(email);
        if (existing !== undefined) {
          this.users.set(id, existing);
          const password = String(r.password ?? '');
          if (existing > 0 && password) {
            // Usually the initial administrator (ADMIN_EMAIL): the person keeps the password they
            // had in SIGAF 1.x (bcrypt, accepted at sign-in and upgraded), not the new one.
            await this.repo.takeLegacyPassword(existing, password, num(r.is_first_login) ?? 0);
            this.report.legacyPasswordKept.push(email);
            this.report.notes.push(
              `La cuenta ${email} ya existía en este sistema (el administrador inicial): conserva su contraseña de SIGAF 1.x; la contraseña inicial (generada o ADMIN_PASSWORD) deja de valer para ella.`,
            );
          }
          this.anomaly(
            'users',
            [id],
            'staff_already_present',
            `se conserva la cuenta existente y se usa para esta persona${existing > 0 && password ? ', con su contraseña de SIGAF 1.x' : ''}`,
            email,
          );
          continue;
        }
        // A RUT repeated on several accounts is kept on each, as SIGAF 1.x allowed (one role per account).
        const rut = normalizeRut(str(r.rut));
        if (!rut && r.rut)
          this.anomaly(
            'users',
            [id],
            'invalid_rut',
            'RUT del funcionario dejado vacío',
            String(r.rut),
          );
        byEmail.set(email, -1);
        fresh.push({
          legacyId: id,
          row: {
            rut,
            name: this.fit('users', id, 'name', r.name, 200),
            phone: this.fit('users', id, 'phone', r.phone, 20),
            mobile: this.fit('users', id, 'mobile', r.mobile, 20),
            email,
            password: String(r.password ?? ''),
            is_first_login: num(r.is_first_login) ?? 0,
            role_id: this.ref('users', 'roles', id, r.role_id),
            ...this.stamps('users', r),
          },
        });
      }
      const ids = await this.repo.insert(
        'users',
        cols,
        fresh.map((f) => f.row),
        'id',
      );
      fresh.forEach((f, i) => {
        this.users.set(f.legacyId, Number(ids[i]!.id));
        byEmail.set(String(f.row.email), Number(ids[i]!.id));
      });
      this.report.tables.users!.imported += fresh.length;
    }
    const admin = await this.repo.firstAdminId();
    if (admin === undefined)
      throw new LegacyImportRefused(
        'No hay ninguna cuenta de administrador en el origen ni en el destino.',
      );
    this.fallbackUser = admin;
  }

  private async categories() {
    const cols: Column[] = [
      ['id', 'int'],
      ['description', 'text'],
      ['platform_id', 'int'],
      ['id_category_moodle', 'bigint'],
      ['category_code', 'text'],
      ['status', 'int'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('categories', [
      'id',
      'description',
      'platform_id',
      'id_category_moodle',
      'category_code',
      'status',
      'created_at',
      'updated_at',
    ])) {
      for (const r of batch) this.categoryIds.add(Number(r.id));
      await this.write(
        'categories',
        'categories',
        cols,
        batch.map((r) => ({
          id: Number(r.id),
          description: this.fit('categories', Number(r.id), 'description', r.description, 255),
          platform_id: this.ref('categories', 'platforms', Number(r.id), r.platform_id),
          id_category_moodle: num(r.id_category_moodle),
          category_code: String(r.category_code ?? ''),
          status: num(r.status) ?? 1,
          ...this.stamps('categories', r),
        })),
      );
    }
  }

  private async coursesAndActivities() {
    const cols: Column[] = [
      ['id', 'int'],
      ['description', 'text'],
      ['email', 'text'],
      ['password_encrypted', 'text'],
      ['id_course_moodle', 'int'],
      ['category_id', 'int'],
      ['status', 'int'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('courses', [
      'id',
      'description',
      'email',
      'password',
      'id_course_moodle',
      'category_id',
      'status',
      'created_at',
      'updated_at',
    ])) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        if (!this.categoryIds.has(Number(r.category_id))) {
          this.anomaly(
            'courses',
            [id, Number(r.category_id)],
            'orphan',
            'no se importa: su categoría no existe; sus actividades, inscripciones y tickets también se informan',
          );
          continue;
        }
        rows.push({
          id,
          description: this.fit('courses', id, 'description', r.description, 150),
          email: str(r.email),
          password_encrypted: r.password
            ? encryptSecret(String(r.password), this.opts.appSecret)
            : null,
          id_course_moodle: num(r.id_course_moodle),
          category_id: Number(r.category_id),
          status: num(r.status) ?? 1,
          ...this.stamps('courses', r),
        });
        this.courses.add(id);
      }
      await this.write('courses', 'courses', cols, rows);
    }
    const acols: Column[] = [
      ['id', 'int'],
      ['description', 'text'],
      ['type', 'text'],
      ['section_id', 'int'],
      ['weighing', 'numeric'],
      ['id_activity_moodle', 'int'],
      ['course_id', 'int'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('activities', [
      'id',
      'description',
      'type',
      'section_id',
      'weighing',
      'id_activity_moodle',
      'course_id',
      'created_at',
      'updated_at',
    ])) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        if (!this.courses.has(Number(r.course_id))) {
          this.anomaly(
            'activities',
            [id, Number(r.course_id)],
            'orphan',
            'no se importa: su curso no existe',
          );
          continue;
        }
        rows.push({
          id,
          description: this.fit('activities', id, 'description', r.description, 255),
          type: str(r.type),
          section_id:
            r.section_id === null || r.section_id === undefined
              ? null
              : this.ref('activities', 'sections', id, r.section_id),
          weighing: num(r.weighing) ?? 10,
          id_activity_moodle: num(r.id_activity_moodle),
          course_id: Number(r.course_id),
          ...this.stamps('activities', r),
        });
        this.activities.add(id);
      }
      await this.write('activities', 'activities', acols, rows);
    }
  }

  private async studentRows() {
    const byRut = new Map<string, number>();
    const cols: Column[] = [
      ['id', 'int'],
      ['rut', 'text'],
      ['name', 'text'],
      ['last_name', 'text'],
      ['mother_last_name', 'text'],
      ['email', 'text'],
      ['phone', 'text'],
      ['mobile', 'text'],
      ['address', 'text'],
      ['city', 'text'],
      ['region', 'text'],
      ['rbd_school', 'text'],
      ['name_school', 'text'],
      ['city_school', 'text'],
      ['region_school', 'text'],
      ['phone_school', 'text'],
      ['id_registered_moodle', 'int'],
      ['rut_registered_moodle', 'text'],
      ['name_registered_moodle', 'text'],
      ['email_registered_moodle', 'text'],
      ['status_moodle', 'text'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    const wanted = [...cols.map(([c]) => c)];
    const limits: Record<string, number> = {
      name: 100,
      last_name: 100,
      mother_last_name: 100,
      city: 100,
      region: 100,
      city_school: 100,
      region_school: 100,
      phone: 20,
      mobile: 20,
      phone_school: 20,
      rbd_school: 20,
      rut_registered_moodle: 20,
    };
    for await (const batch of this.rows('registered_users', wanted)) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        const raw = String(r.rut ?? '').trim();
        let rut = normalizeRut(raw);
        if (!rut) {
          // Kept as written (upper-case, without spaces) so the person can be found and corrected.
          const parsed = parseRut(raw);
          rut =
            (parsed ? formatRut(parsed) : raw.replace(/\s/g, '').toUpperCase()).slice(0, 12) ||
            `SIN-RUT-${id}`.slice(0, 12);
          this.anomaly(
            'registered_users',
            [id],
            'invalid_rut',
            'se conserva tal como está escrito (dígito verificador o formato incorrecto): búsquelo y corríjalo',
            raw,
          );
        }
        const first = byRut.get(rut);
        if (first !== undefined) {
          this.students.set(id, first);
          this.anomaly(
            'registered_users',
            [id, first],
            'duplicate_rut',
            `se une al estudiante ${first} (el id menor): sus inscripciones pasan a él; sus propios datos no se conservan`,
            rut,
          );
          continue;
        }
        byRut.set(rut, id);
        this.students.set(id, id);
        const row: Record<string, unknown> = { id, rut };
        for (const [c] of cols) {
          if (c === 'id' || c === 'rut' || c === 'created_at' || c === 'updated_at') continue;
          row[c] = limits[c]
            ? this.fit('registered_users', id, c, r[c], limits[c]!)
            : c === 'id_registered_moodle'
              ? num(r[c])
              : str(r[c]);
        }
        rows.push({
          ...row,
          name: row.name ?? '',
          last_name: row.last_name ?? '',
          ...this.stamps('registered_users', r),
        });
      }
      await this.write('registered_users', 'registered_users', cols, rows);
    }
  }

  private async enrolmentRows() {
    const hasDrift = (await this.source.columns('course_registered_users')).has('is_sincronized');
    if (this.present.has('course_registered_users') && !hasDrift) {
      this.anomaly(
        'course_registered_users',
        [],
        'missing_drift_column',
        'el origen no tiene is_sincronized: toda inscripción se toma como sincronizada',
        'is_sincronized',
      );
    }
    const seen = new Map<string, number>();
    let relative = 0;
    const cols: Column[] = [
      ['id', 'int'],
      ['course_id', 'int'],
      ['registered_user_id', 'int'],
      ['profile_id', 'int'],
      ['classroom_id', 'int'],
      ['final_status_id', 'int'],
      ['final_qualification', 'numeric'],
      ['final_qualification_moodle', 'text'],
      ['last_access_registered_moodle', 'wallclock'],
      ['last_access_text', 'text'],
      ['is_sincronized', 'boolean'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    const wanted = [
      'id',
      'course_id',
      'registered_user_id',
      'profile_id',
      'classroom_id',
      'final_status_id',
      'final_qualification',
      'final_qualification_moodle',
      'last_access_registered_moodle',
      'is_sincronized',
      'created_at',
      'updated_at',
    ];
    for await (const batch of this.rows('course_registered_users', wanted)) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        const student = this.students.get(Number(r.registered_user_id));
        const course = Number(r.course_id);
        if (student === undefined || !this.courses.has(course)) {
          this.anomaly(
            'course_registered_users',
            [id, Number(r.registered_user_id), course],
            'orphan',
            `no se importa: su ${student === undefined ? 'estudiante' : 'curso'} no existe; sus tickets y resultados también se informan`,
          );
          continue;
        }
        const key = `${course}:${student}`;
        const kept = seen.get(key);
        if (kept !== undefined) {
          this.enrolments.set(id, { id: kept, course });
          this.anomaly(
            'course_registered_users',
            [id, kept],
            'duplicate_enrolment',
            `se une a la inscripción ${kept} (el id menor): sus tickets y resultados pasan a ella`,
          );
          continue;
        }
        seen.set(key, id);
        this.enrolments.set(id, { id, course });
        const access = str(r.last_access_registered_moodle)?.trim() ?? null;
        const stamps = this.stamps('course_registered_users', r);
        let accessAt = access && WALLCLOCK.test(access) ? access : null;
        if (access && !accessAt && access.toLowerCase() !== 'nunca') {
          // "3 días 4 horas": elapsed when the row was last synchronised (its updated_at).
          const reference = r.updated_at ?? r.created_at;
          accessAt =
            reference && WALLCLOCK.test(String(reference))
              ? lastAccessFromRelative(access, String(reference))
              : null;
          if (accessAt) relative++;
          else
            this.anomaly(
              'course_registered_users',
              [id],
              'unreadable_date',
              'el último acceso se conserva solo como texto',
              `last_access_registered_moodle=${access}`,
            );
        }
        rows.push({
          id,
          course_id: course,
          registered_user_id: student,
          profile_id: this.ref('course_registered_users', 'profiles', id, r.profile_id ?? 1),
          classroom_id: this.ref('course_registered_users', 'classrooms', id, r.classroom_id ?? 1),
          final_status_id: this.ref(
            'course_registered_users',
            'final_statuses',
            id,
            r.final_status_id ?? 1,
          ),
          final_qualification: num(r.final_qualification),
          final_qualification_moodle: str(r.final_qualification_moodle),
          last_access_registered_moodle: accessAt,
          last_access_text: access,
          is_sincronized: hasDrift ? Number(r.is_sincronized) === 1 : true,
          ...stamps,
        });
      }
      await this.write('course_registered_users', 'course_registered_users', cols, rows);
    }
    if (relative) {
      this.report.notes.push(
        `course_registered_users: ${relative} últimos accesos escritos como tiempo transcurrido ("3 días 4 horas") se convirtieron en fecha contando hacia atrás desde la última actualización de la fila (updated_at): son fechas aproximadas. El texto original queda en last_access_text; la primera sincronización con Moodle las reemplaza por la fecha exacta.`,
      );
    }
  }

  private async results() {
    const seen = new Set<string>();
    const cols: Column[] = [
      ['id', 'bigint'],
      ['activity_id', 'int'],
      ['course_registered_user_id', 'int'],
      ['status_moodle', 'text'],
      ['qualification_moodle', 'text'],
      ['completion_state', 'int'],
      ['grade', 'numeric'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('activity_course_users', [
      'id',
      'activity_id',
      'course_registered_user_id',
      'status_moodle',
      'qualification_moodle',
      'created_at',
      'updated_at',
    ])) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        const enrolment = this.enrolments.get(Number(r.course_registered_user_id));
        if (!enrolment || !this.activities.has(Number(r.activity_id))) {
          this.anomaly(
            'activity_course_users',
            [id, Number(r.activity_id), Number(r.course_registered_user_id)],
            'orphan',
            `no se importa: su ${enrolment ? 'actividad' : 'inscripción'} no existe`,
          );
          continue;
        }
        const key = `${enrolment.id}:${Number(r.activity_id)}`;
        if (seen.has(key)) {
          this.anomaly(
            'activity_course_users',
            [id],
            'duplicate_result',
            'no se importa: la inscripción ya tiene un resultado para esta actividad (se conserva el primero)',
          );
          continue;
        }
        seen.add(key);
        const text = str(r.qualification_moodle)?.trim() ?? null;
        const asNumber =
          text && /^-?\d+([.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : null;
        if (text && text !== '-' && asNumber === null) {
          this.anomaly(
            'activity_course_users',
            [id],
            'text_in_number',
            'nota dejada vacía; el texto se conserva como calificación de Moodle',
            `qualification_moodle=${text}`,
          );
        }
        const status = this.fit('activity_course_users', id, 'status_moodle', r.status_moodle, 60);
        rows.push({
          id,
          activity_id: Number(r.activity_id),
          course_registered_user_id: enrolment.id,
          status_moodle: status,
          qualification_moodle: this.fit(
            'activity_course_users',
            id,
            'qualification_moodle',
            text,
            60,
          ),
          completion_state: status && status.trim().toLowerCase() === 'finalizado' ? 1 : 0,
          grade: asNumber,
          ...this.stamps('activity_course_users', r),
        });
      }
      await this.write('activity_course_users', 'activity_course_users', cols, rows);
    }
  }

  private async ticketRows() {
    const codes = new Set<string>();
    const cols: Column[] = [
      ['id', 'int'],
      ['course_registered_user_id', 'int'],
      ['course_id', 'int'],
      ['ticket_code', 'text'],
      ['type_ticket_id', 'int'],
      ['status_ticket_id', 'int'],
      ['priority_ticket_id', 'int'],
      ['source_ticket_id', 'int'],
      ['motive_ticket_id', 'int'],
      ['user_create_id', 'int'],
      ['user_assigned_id', 'int'],
      ['closing_date', 'wallclock'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('tickets', [
      'id',
      'course_registered_user_id',
      'ticket_code',
      'type_ticket_id',
      'status_ticket_id',
      'priority_ticket_id',
      'source_ticket_id',
      'motive_ticket_id',
      'user_create_id',
      'user_assigned_id',
      'closing_date',
      'created_at',
      'updated_at',
    ])) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        const enrolment = this.enrolments.get(Number(r.course_registered_user_id));
        if (!enrolment) {
          this.anomaly(
            'tickets',
            [id, Number(r.course_registered_user_id)],
            'orphan',
            'no se importa: su inscripción no existe; sus intentos también se informan',
            str(r.ticket_code) ?? undefined,
          );
          continue;
        }
        let code = String(r.ticket_code ?? '').trim();
        if (!code || codes.has(code)) {
          const replacement = `${code || 'SIGAF1'}-D${id}`.slice(0, 30);
          this.anomaly(
            'tickets',
            [id],
            code ? 'duplicate_code' : 'missing_code',
            `código escrito como ${replacement}`,
            code,
          );
          code = replacement;
        }
        codes.add(code);
        this.tickets.add(id);
        rows.push({
          id,
          course_registered_user_id: enrolment.id,
          course_id: enrolment.course,
          ticket_code: code,
          type_ticket_id: this.ref('tickets', 'type_tickets', id, r.type_ticket_id),
          status_ticket_id: this.ref('tickets', 'status_tickets', id, r.status_ticket_id),
          priority_ticket_id: this.ref('tickets', 'priority_tickets', id, r.priority_ticket_id),
          source_ticket_id: this.ref('tickets', 'source_tickets', id, r.source_ticket_id),
          motive_ticket_id: this.ref('tickets', 'motive_tickets', id, r.motive_ticket_id),
          user_create_id: this.user('tickets', id, 'user_create_id', r.user_create_id, true),
          user_assigned_id: this.user('tickets', id, 'user_assigned_id', r.user_assigned_id, false),
          closing_date: this.when('tickets', id, 'closing_date', r.closing_date),
          ...this.stamps('tickets', r),
        });
      }
      await this.write('tickets', 'tickets', cols, rows);
    }
  }

  private async details() {
    const cols: Column[] = [
      ['id', 'int'],
      ['ticket_id', 'int'],
      ['user_created_id', 'int'],
      ['status_detail_ticket_id', 'int'],
      ['comment', 'text'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('ticket_details', [
      'id',
      'ticket_id',
      'user_created_id',
      'status_detail_ticket_id',
      'comment',
      'created_at',
      'updated_at',
    ])) {
      const rows = [];
      for (const r of batch) {
        const id = Number(r.id);
        if (!this.tickets.has(Number(r.ticket_id))) {
          this.anomaly(
            'ticket_details',
            [id, Number(r.ticket_id)],
            'orphan',
            'no se importa: su ticket no existe o no se importó',
          );
          continue;
        }
        rows.push({
          id,
          ticket_id: Number(r.ticket_id),
          user_created_id: this.user(
            'ticket_details',
            id,
            'user_created_id',
            r.user_created_id,
            true,
          ),
          status_detail_ticket_id: this.ref(
            'ticket_details',
            'status_detail_tickets',
            id,
            r.status_detail_ticket_id,
          ),
          comment: str(r.comment) ?? '',
          ...this.stamps('ticket_details', r),
        });
      }
      await this.write('ticket_details', 'ticket_details', cols, rows);
    }
  }

  private async tutors() {
    for await (const batch of this.rows('course_tutors', ['id', 'course_id', 'tutor_id'])) {
      for (const r of batch) {
        const id = Number(r.id);
        const user = this.users.get(Number(r.tutor_id));
        if (user === undefined || !this.courses.has(Number(r.course_id))) {
          this.anomaly(
            'course_tutors',
            [id, Number(r.course_id), Number(r.tutor_id)],
            'orphan',
            `no se importa: su ${user === undefined ? 'tutor' : 'curso'} no existe`,
          );
          continue;
        }
        const classrooms = await this.repo.assignTutor(Number(r.course_id), user);
        this.report.notes.push(
          `course_tutors ${id}: el tutor ${user} queda a cargo de las aulas ${classrooms.join(', ') || '(ninguna nueva)'} del curso ${String(r.course_id)}.`,
        );
        this.report.tables.course_tutors!.imported++;
      }
    }
  }

  private async alerts() {
    const cols: Column[] = [
      ['id', 'bigint'],
      ['ticket_id', 'int'],
      ['user_id', 'int'],
      ['legacy_ticket_id', 'bigint'],
      ['legacy_user_id', 'bigint'],
      ['remind_at', 'wallclock'],
      ['status_reminder', 'int'],
      ['status_notification', 'int'],
      ['comment', 'text'],
      ['created_at', 'wallclock'],
      ['updated_at', 'wallclock'],
    ];
    for await (const batch of this.rows('alerts', [
      'id',
      'ticket_id',
      'user_id',
      'time',
      'date',
      'status_reminder',
      'status_notification',
      'comment',
      'created_at',
      'updated_at',
    ])) {
      const rows = batch.map((r) => {
        const id = Number(r.id);
        const day = this.when('alerts', id, 'date', r.date);
        return {
          id,
          ticket_id: this.tickets.has(Number(r.ticket_id)) ? Number(r.ticket_id) : null,
          user_id: this.users.get(Number(r.user_id)) ?? null,
          legacy_ticket_id: Number(r.ticket_id),
          legacy_user_id: Number(r.user_id),
          remind_at: day ? `${day.slice(0, 10)} ${String(r.time ?? '00:00:00')}` : null,
          status_reminder: num(r.status_reminder) ?? 0,
          status_notification: num(r.status_notification) ?? 1,
          comment: str(r.comment) ?? '',
          ...this.stamps('alerts', r),
        };
      });
      await this.write('alerts', 'legacy_alerts', cols, rows);
    }
    const kept = this.report.tables.alerts?.imported ?? 0;
    const mapped = kept ? await this.repo.remindersFromAlerts() : 0;
    if (kept)
      this.report.notes.push(
        `alerts: ${kept} recordatorios guardados en legacy_alerts; ${mapped} pasan a Recordatorios (los demás no tienen ticket u operador aquí).`,
      );
  }
}

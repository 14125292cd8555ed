/**
 * Errors of a Moodle web-service call. Moodle's own failures are recognised by `errorcode`
 * (never by the exception class: `core\exception\moodle_exception` since 4.5, `moodle_exception`
 * before); transport failures get codes of our own. Every one carries a clear Spanish message.
 */

/** Codes that are not Moodle errorcodes: failures around the call. */
export type MoodleTransportCode =
  | 'wsdisabled'
  | 'network'
  | 'redirect'
  | 'timeout'
  | 'http'
  | 'notjson'
  | 'interrupted'
  | 'invalidresponse'
  | 'toolarge'
  | 'passwordpolicy'
  | 'rolenotallowed';

const MESSAGES: Record<string, string> = {
  invalidtoken: 'Token de Moodle inválido',
  accessexception: 'Función no habilitada en el servicio web o sin permiso de uso',
  nopermissions: 'El usuario del token no tiene permiso en Moodle para esta operación',
  // gradereport_user_get_grade_items for another user without moodle/grade:viewall.
  nopermissiontoviewgrades:
    'El usuario del token no puede ver las calificaciones de otros usuarios en Moodle (moodle/grade:viewall)',
  invalidparameter: 'Moodle rechazó un parámetro de la llamada (parámetro inválido)',
  invalidrecordunknown: 'Moodle no encontró el registro pedido (curso, usuario, grupo o función)',
  invalidrecord: 'Moodle no encontró el registro pedido (curso, usuario, grupo o función)',
  invaliduser: 'Usuario no encontrado en Moodle',
  errorcoursecontextnotvalid:
    'Curso de Moodle inexistente o no accesible para el usuario del token',
  wsusercannotassign: 'El usuario del token no puede asignar ese rol en el curso de Moodle',
  notenroled: 'El usuario del token no está matriculado en el curso de Moodle',
  usernotenroled: 'El usuario no está matriculado en el curso de Moodle',
  codingerror: 'Moodle rechazó la llamada (valor de parámetro no admitido)',
  accessdenied: 'Acceso denegado por Moodle',
  sitemaintenance: 'Moodle está en mantenimiento',
  servicerequireslogin: 'El servicio web de Moodle requiere iniciar sesión',
  wsdisabled: 'Los servicios web de Moodle están deshabilitados',
  network: 'No se pudo conectar con Moodle',
  redirect:
    'No se pudo conectar con Moodle: la URL redirige a otra dirección; ingrese la URL final del sitio',
  timeout: 'Moodle no respondió a tiempo',
  http: 'Moodle respondió con un error HTTP',
  notjson: 'La respuesta de Moodle no es JSON: revise la URL del sitio',
  interrupted:
    'Moodle cortó la respuesta (su servidor web se detuvo o reinició durante la llamada)',
  invalidresponse: 'Respuesta inesperada de Moodle',
  toolarge: 'La respuesta de Moodle supera el tamaño admitido y no se leyó',
  passwordpolicy: 'La contraseña no cumple la política de contraseñas de Moodle',
  rolenotallowed: 'Rol no permitido para matricular desde SIGAF',
  // enrol_manual_enrol_users when the welcome message cannot be sent (the enrolments are already made).
  'Message was not sent.': 'Moodle no pudo enviar el mensaje de bienvenida',
};

export interface MoodleErrorInit {
  code: string;
  wsfunction: string;
  /** Spanish text added after the code's message (a detail, an HTTP status...). */
  detail?: string;
  exception?: string;
  moodleMessage?: string;
  debuginfo?: string;
  httpStatus?: number;
  retryable?: boolean;
  cause?: unknown;
  /** For a call split into batches: which batch failed, the earlier ones having been applied. */
  batch?: { index: number; total: number };
}

export class MoodleError extends Error {
  readonly code: string;
  readonly wsfunction: string;
  readonly exception?: string;
  readonly moodleMessage?: string;
  readonly debuginfo?: string;
  readonly httpStatus?: number;
  /** Transient: the same call may succeed if repeated (network, timeout, HTTP 5xx). */
  readonly retryable: boolean;
  readonly batch?: { index: number; total: number };
  readonly detail?: string;

  constructor(init: MoodleErrorInit) {
    const base =
      MESSAGES[init.code] ??
      `Error de Moodle (${init.code})${init.moodleMessage ? `: ${init.moodleMessage}` : ''}`;
    super(
      init.detail ? `${base}: ${init.detail}` : base,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.name = 'MoodleError';
    this.code = init.code;
    this.wsfunction = init.wsfunction;
    this.exception = init.exception;
    this.moodleMessage = init.moodleMessage;
    this.debuginfo = init.debuginfo;
    this.httpStatus = init.httpStatus;
    this.retryable = init.retryable ?? false;
    this.batch = init.batch;
    this.detail = init.detail;
  }

  /** The same error, saying which batch of a split call failed (the earlier ones were applied). */
  inBatch(index: number, total: number): MoodleError {
    if (total <= 1) return this;
    const where = `lote ${index + 1} de ${total}${index > 0 ? '; los lotes anteriores ya se aplicaron' : ''}`;
    return new MoodleError({
      code: this.code,
      wsfunction: this.wsfunction,
      exception: this.exception,
      moodleMessage: this.moodleMessage,
      debuginfo: this.debuginfo,
      httpStatus: this.httpStatus,
      retryable: this.retryable,
      detail: this.detail ? `${this.detail} (${where})` : where,
      batch: { index, total },
      cause: this,
    });
  }

  /** What may be shown or stored (never the token: it is not part of any error). */
  toJSON() {
    return {
      code: this.code,
      message: this.message,
      wsfunction: this.wsfunction,
      moodleMessage: this.moodleMessage,
      httpStatus: this.httpStatus,
    };
  }
}

export function isMoodleError(e: unknown): e is MoodleError {
  return e instanceof MoodleError;
}

/** The Spanish message of a known code (tests and UI hints). */
export function moodleErrorMessage(code: string): string | undefined {
  return MESSAGES[code];
}

const stripHtml = (s: string) =>
  s
    .replace(/<\/div>\s*<div>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Maps Moodle's error body `{exception, errorcode, message, debuginfo?}` to a MoodleError. */
export function fromMoodleErrorBody(
  wsfunction: string,
  body: { exception: string; errorcode: string; message?: string; debuginfo?: string },
): MoodleError {
  const common = {
    wsfunction,
    exception: body.exception,
    moodleMessage: body.message,
    debuginfo: body.debuginfo,
  };
  // A password-policy failure carries the policy text (HTML) as its errorcode.
  if (body.errorcode.includes('<'))
    return new MoodleError({
      ...common,
      code: 'passwordpolicy',
      detail: stripHtml(body.errorcode),
    });
  const capability =
    body.errorcode === 'nopermissions'
      ? /\(([^()]+)\)\.?$/.exec(body.message ?? '')?.[1]
      : undefined;
  return new MoodleError({ ...common, code: body.errorcode, detail: capability });
}

/**
 * Moodle's side of the REST transport: PHP's parsing of bracket form fields, the external API's
 * parameter validation (external_value / external_single_structure / external_multiple_structure)
 * and the exceptions it answers with, worded like Moodle's.
 */

/** An exception as Moodle's REST server reports it. */
export class WsError extends Error {
  constructor(
    readonly exception: string,
    readonly errorcode: string,
    message: string,
    readonly debuginfo?: string,
    /** What debug mode shows instead (dml exceptions name the table there). */
    readonly debugVariant?: { errorcode: string; message: string },
  ) {
    super(message);
  }
}

export const invalidParameter = (debuginfo?: string) =>
  new WsError(
    'core\\exception\\invalid_parameter_exception',
    'invalidparameter',
    'Invalid parameter value detected',
    debuginfo,
  );

export const moodleException = (errorcode: string, message: string, debuginfo?: string) =>
  new WsError('core\\exception\\moodle_exception', errorcode, message, debuginfo);

export const requiredCapability = (capabilityName: string) =>
  new WsError(
    'core\\exception\\required_capability_exception',
    'nopermissions',
    `Sorry, but you do not currently have permissions to do that (${capabilityName}).`,
  );

export const accessException = (debuginfo: string) =>
  new WsError(
    'webservice_access_exception',
    'accessexception',
    'Access control exception',
    debuginfo,
  );

export const courseContextNotValid = (courseid: number, reason: string) =>
  moodleException(
    'errorcoursecontextnotvalid',
    `You cannot execute functions in the course context (course id:${courseid}). The context error message was: ${reason}`,
  );

/** dml_missing_record_exception: generic without debug, naming the table and query with it. */
export function missingRecord(
  table: string,
  column: string,
  value: number | string,
  debugAs?: { errorcode: string; message: string },
): WsError {
  const shown = typeof value === 'number' ? String(value) : `'${value}'`;
  return new WsError(
    'dml_missing_record_exception',
    'invalidrecordunknown',
    "Can't find data record in database.",
    `SELECT * FROM {${table}} WHERE ${column} = ?\n[array (\n  0 => ${shown},\n)]`,
    debugAs ?? {
      errorcode: 'invalidrecord',
      message: `Can't find data record in database table ${table}.`,
    },
  );
}

export const codingError = (detail: string) =>
  new WsError(
    'core\\exception\\coding_exception',
    'codingerror',
    `Coding error detected, it must be fixed by a programmer: ${detail}`,
  );

// --- PHP form parsing --------------------------------------------------------------------

/** A parsed PHP request variable: a string, or an ordered array (PHP arrays keep insertion order). */
export type PhpValue = string | PhpArray;
export type PhpArray = Map<string, PhpValue>;

/** Parses `a[b][0]=x&a[b][1]=y` the way PHP fills $_POST/$_GET (later duplicates win). */
export function parsePhpFields(pairs: Iterable<[string, string]>): PhpArray {
  const root: PhpArray = new Map();
  for (const [rawName, value] of pairs) {
    const m = /^([^[]+)((?:\[[^\]]*\])*)/.exec(rawName);
    if (!m) continue;
    const keys = [m[1]!, ...[...m[2]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!)];
    let node: PhpArray = root;
    keys.forEach((k, i) => {
      let name = k;
      if (name === '') {
        const ints = [...node.keys()].map(Number).filter((n) => Number.isInteger(n));
        name = String(ints.length ? Math.max(...ints) + 1 : 0);
      }
      if (i === keys.length - 1) {
        node.set(name, value);
      } else {
        let next = node.get(name);
        if (!(next instanceof Map)) {
          next = new Map();
          node.set(name, next);
        }
        node = next;
      }
    });
  }
  return root;
}

// --- External API parameter descriptions ------------------------------------------------

type ParamType =
  | 'int'
  | 'bool'
  | 'float'
  | 'alpha'
  | 'alphanumext'
  | 'username'
  | 'text'
  | 'raw'
  | 'notags'
  | 'email';

export type Desc =
  | { kind: 'value'; type: ParamType; required: boolean; default?: unknown }
  | { kind: 'single'; keys: Record<string, Desc>; required: boolean; default?: unknown }
  | { kind: 'multiple'; item: Desc; required: boolean; default?: unknown };

/** VALUE_REQUIRED unless a default is given (VALUE_DEFAULT), or optional: 'optional' (VALUE_OPTIONAL). */
export const value = (type: ParamType, def?: unknown): Desc => ({
  kind: 'value',
  type,
  required: def === undefined,
  default: def === OPTIONAL ? undefined : def,
});
export const single = (keys: Record<string, Desc>, def?: unknown): Desc => ({
  kind: 'single',
  keys,
  required: def === undefined,
  default: def === OPTIONAL ? undefined : def,
});
export const multiple = (item: Desc, def?: unknown): Desc => ({
  kind: 'multiple',
  item,
  required: def === undefined,
  default: def === OPTIONAL ? undefined : def,
});
/** Marks a parameter VALUE_OPTIONAL (absent stays absent). */
export const OPTIONAL = Symbol('optional');

function checkValue(type: ParamType, v: string): unknown {
  const bad = () =>
    invalidParameter(
      `Invalid external api parameter: the value is "${v}", the server was expecting "${type}" type`,
    );
  switch (type) {
    case 'int':
      if (!/^-?\d+$/.test(v)) throw bad();
      return Number(v);
    case 'bool':
      if (v !== '0' && v !== '1') throw bad();
      return v === '1';
    case 'float':
      if (!/^-?\d+(\.\d+)?$/.test(v)) throw bad();
      return Number(v);
    case 'alpha':
      if (!/^[A-Za-z]*$/.test(v)) throw bad();
      return v;
    case 'alphanumext':
      if (!/^[A-Za-z0-9_-]*$/.test(v)) throw bad();
      return v;
    case 'username':
      if (v !== v.toLowerCase() || !/^[a-z0-9_.@-]*$/.test(v)) throw bad();
      return v;
    default:
      return v;
  }
}

const printR = (v: PhpValue): string => (typeof v === 'string' ? v : 'Array');

/** external_api::validate_parameters: typed values, defaults applied, unexpected keys refused. */
export function validateParams(desc: Desc, input: PhpValue | undefined): unknown {
  if (desc.kind === 'value') {
    if (input instanceof Map)
      throw invalidParameter(
        'Invalid external api parameter: the value is "Array", the server was expecting "' +
          desc.type +
          '" type',
      );
    return checkValue(desc.type, input ?? '');
  }
  if (desc.kind === 'multiple') {
    if (!(input instanceof Map))
      throw invalidParameter(`Only arrays accepted. The bad value is: '${printR(input ?? '')}'`);
    return [...input.values()].map((v) => validateParams(desc.item, v));
  }
  if (!(input instanceof Map))
    throw invalidParameter(`Only arrays accepted. The bad value is: '${printR(input ?? '')}'`);
  const rest = new Map(input);
  const out: Record<string, unknown> = {};
  for (const [k, sub] of Object.entries(desc.keys)) {
    if (!rest.has(k)) {
      if (sub.required) throw invalidParameter(`Missing required key in single structure: ${k}`);
      if (sub.default !== undefined) out[k] = sub.default;
      continue;
    }
    const v = rest.get(k)!;
    rest.delete(k);
    try {
      out[k] = validateParams(sub, v);
    } catch (e) {
      if (e instanceof WsError && e.errorcode === 'invalidparameter')
        throw invalidParameter(`${k} => ${e.message}: ${e.debuginfo ?? ''}`);
      throw e;
    }
  }
  if (rest.size)
    throw invalidParameter(
      `Unexpected keys (${[...rest.keys()].join(', ')}) detected in parameter array.`,
    );
  return out;
}

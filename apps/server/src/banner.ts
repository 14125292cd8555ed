/** The first administrator created on an empty database, as told once on the console. */
export interface FirstAdmin {
  email: string;
  /** The generated password, or null when ADMIN_PASSWORD was set. */
  password: string | null;
  /** Where the generated password is also kept until the first sign-in (DATA_DIR/primer-acceso.txt). */
  file?: string;
}

/** The lines that tell the first administrator's sign-in, shared by the plain and the demo banners. */
export function firstAdminLines(admin: FirstAdmin): string[] {
  return [
    `  First administrator: ${admin.email}  password ${admin.password ?? '(the ADMIN_PASSWORD you set)'}`,
    '    (a new password is asked at first sign-in; shown only this once)',
    ...(admin.file
      ? [
          `  Also kept in ${admin.file} (readable only by this user),`,
          '    deleted once the new password is chosen.',
        ]
      : []),
  ];
}

/** The console block on a plain start: the first administrator, when one was just created. */
export function firstAdminBanner(admin: FirstAdmin | null): string {
  if (!admin) return '';
  return [
    '',
    '================ First administrator ================',
    ...firstAdminLines(admin),
    '=====================================================',
    '',
  ].join('\n');
}

/**
 * Prints `text` after every log line written so far: the JSON log is written asynchronously, so a
 * plain console.log would overtake it and the banner would scroll away under the startup lines.
 * It goes on the log's own output stream (pino's, found by its symbol's name), else the console.
 */
export function printAfterLog(log: object, text: string): void {
  const key = Object.getOwnPropertySymbols(log).find((s) => s.description === 'pino.stream');
  const stream = key
    ? (log as Record<symbol, { write?: (chunk: string) => unknown } | undefined>)[key]
    : undefined;
  if (typeof stream?.write === 'function') stream.write(`${text}\n`);
  else console.log(text);
}

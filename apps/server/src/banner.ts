/** The first administrator created on an empty database, as told once on the console. */
export interface FirstAdmin {
  email: string;
  /** The generated password, or null when ADMIN_PASSWORD was set. */
  password: string | null;
}

/** The lines that tell the first administrator's sign-in, shared by the plain and the demo banners. */
export function firstAdminLines(admin: FirstAdmin): string[] {
  return [
    `  First administrator: ${admin.email}  password ${admin.password ?? '(the ADMIN_PASSWORD you set)'}`,
    '    (a new password is asked at first sign-in; shown only this once)',
  ];
}

/** The console block on a plain start: the first administrator, when one was just created. */
export function firstAdminBanner(admin: FirstAdmin | null): string {
  if (!admin) return '';
  return ['', '================ First administrator ================', ...firstAdminLines(admin), '=====================================================', ''].join('\n');
}

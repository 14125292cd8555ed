/** Business constants (docs/development/domain.md#constants). */
export const APP_VERSION = '1.8.6';
export const APP_TITLE = 'Sistema de Información para la Gestión de Acciones Formativas';
export const APP_SHORT_NAME = 'SIGAF';
export const MIN_PASSWORD_LENGTH = 8;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const LOGIN_SNACKBAR_MS = 3000;
export const SNACKBAR_MS = 5000;
export const PARTIAL_LOGOUT_DELAY_MS = 2000;
export const FORM_RESET_DELAY_MS = 300;
/** isFirstLogin 0 means the user must set a new password. */
export const FIRST_LOGIN_PENDING = 0;
export const FIRST_LOGIN_DONE = 1;
export const ACTIVE_COURSE_STATUS = 1;
export const TOKEN_STORAGE_KEY = 'access_token';
export const THEME_COLORS = {
  blue: '#006C8D',
  red: '#AC1315',
  light: '#FEF7FB',
  gray: '#404040',
} as const;
export const DEFAULT_LANGUAGE = 'es';
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

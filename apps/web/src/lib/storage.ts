import { TOKEN_STORAGE_KEY } from '@sigaf/contract';

/** Keys of the preferences this app keeps in localStorage (besides the access token). */
export const PREF_KEYS = {
  language: 'sigaf.language',
  drawerOpen: 'sigaf.drawerOpen',
} as const;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode): the app still works for this tab
  }
}

export function readPref(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writePref(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    /* quota or privacy mode: the preference is simply not remembered */
  }
}

export function getStoredToken(): string | null {
  const value = storage()?.getItem(TOKEN_STORAGE_KEY);
  return value ? value : null;
}

export function setStoredToken(token: string): void {
  writePref(TOKEN_STORAGE_KEY, token);
}

export function clearStoredToken(): void {
  try {
    storage()?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    /* nothing stored */
  }
}

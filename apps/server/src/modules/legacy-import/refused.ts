/** The import cannot go on: one Spanish line says why (no stack trace is shown). */
export class LegacyImportRefused extends Error {}

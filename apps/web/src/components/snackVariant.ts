/** Kinds of the shared snackbar's toast (see Snackbar and SnackToast). */
export type SnackVariant = 'success' | 'warning' | 'error' | 'info';

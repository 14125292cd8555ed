import { SNACKBAR_MS } from '@sigaf/contract';
import { Alert, Portal, Snackbar } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

export type SnackVariant = 'success' | 'warning' | 'error' | 'info';
interface Snack {
  message: string;
  variant: SnackVariant;
  duration: number;
  key: number;
}

const Ctx = createContext<(message: string, variant?: SnackVariant, duration?: number) => void>(() => undefined);

/** The shared snackbar: white toast with a coloured border and icon (SCREENS.md §0), 5000 ms by default. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [snack, setSnack] = useState<Snack | null>(null);
  const notify = useCallback((message: string, variant: SnackVariant = 'success', duration = SNACKBAR_MS) => {
    setSnack({ message, variant, duration, key: Date.now() });
  }, []);
  const value = useMemo(() => notify, [notify]);
  return (
    <Ctx.Provider value={value}>
      {children}
      {/* Mounted in a portal when shown, so it stays announced while a dialog is open
          (an open dialog hides the rest of the page from screen readers). */}
      {snack && (
        <Portal>
          <Snackbar
            key={snack.key}
            open
            autoHideDuration={snack.duration}
            onClose={(_, reason) => reason !== 'clickaway' && setSnack(null)}
            anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
          >
            <Alert
              onClose={() => setSnack(null)}
              severity={snack.variant}
              variant="outlined"
              sx={{ bgcolor: 'background.paper', borderLeftWidth: 10, minWidth: 300 }}
              role="alert"
            >
              {snack.message}
            </Alert>
          </Snackbar>
        </Portal>
      )}
    </Ctx.Provider>
  );
}

export const useNotify = () => useContext(Ctx);

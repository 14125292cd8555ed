import { SNACKBAR_MS } from '@sigaf/contract';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { SnackVariant } from './snackVariant';

export type { SnackVariant };
interface Snack {
  message: string;
  variant: SnackVariant;
  duration: number;
  key: number;
}

const Ctx = createContext<(message: string, variant?: SnackVariant, duration?: number) => void>(
  () => undefined,
);

/** The toast's module loads with the signed-in application (see ../app/shell), not with the login screen. */
export const loadSnackToast = () => import('./SnackToast');
const SnackToast = lazy(loadSnackToast);

/** The shared snackbar: white toast with a coloured border and icon (docs/development/screens.md#conventions), 5000 ms by default. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [snack, setSnack] = useState<Snack | null>(null);
  const notify = useCallback(
    (message: string, variant: SnackVariant = 'success', duration = SNACKBAR_MS) => {
      setSnack({ message, variant, duration, key: Date.now() });
    },
    [],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <Ctx.Provider value={value}>
      {children}
      {snack && (
        <Suspense fallback={null}>
          <SnackToast
            key={snack.key}
            message={snack.message}
            variant={snack.variant}
            duration={snack.duration}
            onClose={() => setSnack(null)}
          />
        </Suspense>
      )}
    </Ctx.Provider>
  );
}

export const useNotify = () => useContext(Ctx);

import { CHUNK_LOAD_TIMEOUT_MS } from '@sigaf/contract';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type LazyScreen<P extends object> = ComponentType<P> & {
  /** Starts loading the module (once); resolves with it when it is there. */
  preload(): Promise<Record<string, unknown>>;
};

/**
 * React.lazy with the 120 s chunk timeout (docs/development/domain.md#constants). Once the module is there (loaded by an
 * earlier render or by `preload`), the screen renders at once, without suspending.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> } & Record<string, unknown>>,
): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> } & Record<string, unknown>> | null = null;
  const preload = () => {
    loading ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  };
  const Lazy = lazy(() =>
    Promise.race([
      preload(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('chunk timeout')), CHUNK_LOAD_TIMEOUT_MS),
      ),
    ]),
  );
  function Screen(props: P) {
    const Component = (loaded ?? Lazy) as ComponentType<P>;
    return <Component {...props} />;
  }
  return Object.assign(Screen, { preload });
}

/** The signed-in application (layout, data cache) and its home page, loaded after the login screen. */
export const Shell = lazyScreen(() => import('./shell'));
export const HomeScreen = lazyScreen(() => import('../features/home/HomePage'));

function ChunkError() {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      action={<Button onClick={() => window.location.reload()}>{t('app.retry')}</Button>}
    >
      {t('app.chunkError')}
    </Alert>
  );
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <ChunkError /> : this.props.children;
  }
}

export function Loading() {
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'center', py: 8 }}
      role="progressbar"
      aria-label="Cargando"
    >
      <CircularProgress />
    </Box>
  );
}

export function ScreenBoundary({ children }: { children: ReactNode }) {
  return (
    <Boundary>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </Boundary>
  );
}

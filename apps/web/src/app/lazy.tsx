import { CHUNK_LOAD_TIMEOUT_MS } from '@sigaf/contract';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** React.lazy with the 120 s chunk timeout of SPEC.md §9. */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() =>
    Promise.race([
      load(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('chunk timeout')), CHUNK_LOAD_TIMEOUT_MS)),
    ]),
  );
}

function ChunkError() {
  const { t } = useTranslation();
  return (
    <Alert severity="error" action={<Button onClick={() => window.location.reload()}>{t('app.retry')}</Button>}>
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
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }} role="progressbar" aria-label="Cargando">
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

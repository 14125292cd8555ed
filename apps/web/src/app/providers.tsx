import { CssBaseline, ThemeProvider } from '@mui/material';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SnackbarProvider } from '../components/Snackbar';
import { SessionProvider } from '../lib/session';
import { buildTheme } from './theme';

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const theme = useMemo(() => buildTheme(i18n.language), [i18n.language]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider>
        <SessionProvider>{children}</SessionProvider>
      </SnackbarProvider>
    </ThemeProvider>
  );
}

import { createTheme, ThemeProvider, useTheme } from '@mui/material/styles';
import { enUS as gridEn, esES as gridEs } from '@mui/x-data-grid/locales';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadSnackToast } from '../components/Snackbar';
import '../i18n/features';
import { queryClient } from '../lib/queryClient';
import { displayedRows, type DisplayedRows } from '../lib/format';
import MyLayout from './layout/MyLayout';

// The screens' notifications show at once: their toast is loaded with the application.
void loadSnackToast().catch(() => undefined);

/**
 * The signed-in application around the /my layout: the server data cache and the data grid's
 * texts in the user's language. Loaded after the login screen, which needs neither.
 */
export default function Shell() {
  const { i18n, t } = useTranslation();
  const outer = useTheme();
  // The grids' column menu in words (the stock Spanish says "Ordenar ASC / DESC").
  const theme = useMemo(
    () =>
      createTheme(outer, i18n.language === 'en' ? gridEn : gridEs, {
        components: {
          MuiDataGrid: {
            defaultProps: {
              localeText: {
                columnMenuSortAsc: t('common.sortAsc'),
                columnMenuSortDesc: t('common.sortDesc'),
                columnMenuUnsort: t('common.unsort'),
                // An empty grid says so in its own overlay, not "0–0 de 0" under it.
                paginationDisplayedRows: ({ from, to, count }: DisplayedRows) =>
                  displayedRows(t, i18n.language, { from, to, count }),
              },
            },
            // The last header's resize handle and menu button stick out past the grid's edge and
            // would make a grid whose columns fit scroll sideways by a few pixels.
            styleOverrides: { root: { '& .MuiDataGrid-topContainer': { overflow: 'hidden' } } },
          },
        },
      }),
    [outer, i18n.language, t],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <MyLayout />
      </ThemeProvider>
    </QueryClientProvider>
  );
}

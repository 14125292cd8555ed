import { THEME_COLORS } from '@sigaf/contract';
import { createTheme } from '@mui/material/styles';
import { enUS, esES } from '@mui/material/locale';
import type {} from '@mui/x-data-grid/themeAugmentation';

export function buildTheme(lang: string) {
  return createTheme(
    {
      palette: {
        primary: { main: THEME_COLORS.blue },
        secondary: { main: THEME_COLORS.red },
        error: { main: THEME_COLORS.red },
        // WCAG AA (theme.test.ts): the orange of outlined chips and the white on filled ones reach
        // 4.5:1 on white and on the page's grey; so do the blue of info and the green of success.
        warning: { main: '#B45309', contrastText: '#ffffff' },
        info: { main: '#01579B', contrastText: '#ffffff' },
        success: { main: '#2E7D32', contrastText: '#ffffff' },
        text: { primary: THEME_COLORS.gray },
        background: { default: '#F2F4F5' },
      },
      shape: { borderRadius: 6 },
      typography: { fontFamily: 'Roboto, "Segoe UI", Arial, sans-serif' },
      components: {
        // A visible keyboard focus on every button, menu entry, chip and icon: a ring in the
        // element's own text colour (white on the blue bar and the dark menu, blue on white), and
        // in the body text colour around filled buttons, whose white text would vanish on the page.
        MuiButtonBase: {
          styleOverrides: {
            root: { '&.Mui-focusVisible': { outline: '2px solid currentColor', outlineOffset: 2 } },
          },
        },
        MuiButton: {
          defaultProps: { disableElevation: true },
          styleOverrides: {
            root: { '&.MuiButton-contained.Mui-focusVisible': { outlineColor: THEME_COLORS.gray } },
          },
        },
        // Printed while a ficha or a dialog is open, the page is that ficha or dialog alone: the
        // screen behind it is left out, and the panel flows over as many pages as it needs.
        MuiCssBaseline: {
          styleOverrides: {
            '@media print': {
              'body:has(> .MuiDrawer-modal, > .MuiDialog-root) > #root': { display: 'none' },
              '.MuiDrawer-modal, .MuiDialog-root': { position: 'static !important' },
              '.MuiDrawer-modal .MuiBackdrop-root, .MuiDialog-root .MuiBackdrop-root': {
                display: 'none',
              },
              '.MuiDrawer-modal .MuiDrawer-paper, .MuiDialog-root .MuiDialog-container, .MuiDialog-root .MuiDialog-paper':
                {
                  position: 'static',
                  width: '100% !important',
                  maxWidth: 'none',
                  height: 'auto',
                  maxHeight: 'none',
                  overflow: 'visible',
                  boxShadow: 'none',
                  margin: 0,
                },
            },
          },
        },
        MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
        // A grid that refreshes its rows draws its bar over them but lets clicks through: a box
        // ticked while the list reloads stays ticked (the selection is kept by id meanwhile).
        MuiDataGrid: {
          styleOverrides: {
            root: {
              '& .MuiDataGrid-overlayWrapperInner:has(.MuiLinearProgress-root)': {
                pointerEvents: 'none',
              },
            },
          },
        },
      },
    },
    lang === 'en' ? enUS : esES,
  );
}

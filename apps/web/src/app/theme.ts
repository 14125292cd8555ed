import { THEME_COLORS } from '@sigaf/contract';
import { createTheme } from '@mui/material/styles';
import { enUS, esES } from '@mui/material/locale';
import { esES as gridEs, enUS as gridEn } from '@mui/x-data-grid/locales';

export function buildTheme(lang: string) {
  return createTheme(
    {
      palette: {
        primary: { main: THEME_COLORS.blue },
        secondary: { main: THEME_COLORS.red },
        error: { main: THEME_COLORS.red },
        // Dark text on the orange (white on #ed6c02 is 3.1:1, below WCAG AA; this is 6.9:1).
        warning: { main: '#ed6c02', contrastText: 'rgba(0, 0, 0, 0.87)' },
        text: { primary: THEME_COLORS.gray },
        background: { default: '#F2F4F5' },
      },
      shape: { borderRadius: 6 },
      typography: { fontFamily: 'Roboto, "Segoe UI", Arial, sans-serif' },
      components: {
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      },
    },
    lang === 'en' ? enUS : esES,
    lang === 'en' ? gridEn : gridEs,
  );
}

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
        MuiButton: { defaultProps: { disableElevation: true } },
        MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      },
    },
    lang === 'en' ? enUS : esES,
    lang === 'en' ? gridEn : gridEs,
  );
}

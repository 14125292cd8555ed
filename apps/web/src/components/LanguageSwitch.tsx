import TranslateIcon from '@mui/icons-material/Translate';
import { Button } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The menu loads when the button is approached (pointer or focus), not with the login screen. */
const loadMenu = () => import('./LanguageMenu');
const LanguageMenu = lazy(loadMenu);
const preload = () => void loadMenu().catch(() => undefined);

export function LanguageSwitch({ color = 'primary' }: { color?: 'inherit' | 'primary' }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  /** Mounted once opened, so later closings keep their transition. */
  const [used, setUsed] = useState(false);
  return (
    <>
      {/* The accessible name starts with the visible text ("ES"), then says what it is. */}
      <Button
        color={color}
        startIcon={<TranslateIcon />}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={(e) => {
          setUsed(true);
          setAnchor(e.currentTarget);
        }}
        aria-label={`${i18n.language.toUpperCase()} · ${t('app.language')}`}
      >
        {i18n.language.toUpperCase()}
      </Button>
      {used && (
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}

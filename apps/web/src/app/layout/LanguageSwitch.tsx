import { LANGUAGES, type Language } from '@sigaf/contract';
import TranslateIcon from '@mui/icons-material/Translate';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../i18n';

const NAMES: Record<Language, string> = { es: 'Español', en: 'English' };

export function LanguageSwitch({ color = 'primary' }: { color?: 'inherit' | 'primary' }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      {/* The accessible name starts with the visible text ("ES"), then says what it is. */}
      <Button color={color} startIcon={<TranslateIcon />} onClick={(e) => setAnchor(e.currentTarget)} aria-label={`${i18n.language.toUpperCase()} · ${t('app.language')}`}>
        {i18n.language.toUpperCase()}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((l) => (
          <MenuItem
            key={l}
            selected={l === i18n.language}
            onClick={() => {
              void setLanguage(l);
              setAnchor(null);
            }}
          >
            {NAMES[l]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

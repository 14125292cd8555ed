import { LANGUAGES, type Language } from '@sigaf/contract';
import { Menu, MenuItem } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../i18n';

const NAMES: Record<Language, string> = { es: 'Español', en: 'English' };

/** The languages to choose from, under the language button. */
export default function LanguageMenu({
  anchor,
  onClose,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const { i18n } = useTranslation();
  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {LANGUAGES.map((l) => (
        <MenuItem
          key={l}
          selected={l === i18n.language}
          onClick={() => {
            void setLanguage(l);
            onClose();
          }}
        >
          {NAMES[l]}
        </MenuItem>
      ))}
    </Menu>
  );
}

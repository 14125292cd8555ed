import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SEARCH_ATTR } from './useSearchShortcut';

/** A search field that reports its text 300 ms after typing stops; "/" or Ctrl+K reaches it from anywhere on the page. */
export function SearchBox({
  onChange,
  width = 260,
  initial = '',
}: {
  onChange: (text: string) => void;
  width?: number;
  /** The text it opens with (a search kept in the address). */
  initial?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  useEffect(() => {
    const timer = setTimeout(() => onChange(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, onChange]);
  return (
    <TextField
      value={text}
      onChange={(e) => setText(e.target.value)}
      label={t('common.search')}
      sx={{ width, maxWidth: '100%' }}
      fullWidth={false}
      title={t('common.searchShortcut')}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { [PAGE_SEARCH_ATTR]: '', 'aria-keyshortcuts': '/ Control+K' },
      }}
    />
  );
}

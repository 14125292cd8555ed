import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { dayText, parseDay } from '@sigaf/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A day typed and shown `dd-mm-yyyy` whatever the browser's language (a native date input shows
 * the browser's own order), with the browser's calendar one click away. `value` and `onChange`
 * carry `yyyy-mm-dd` ('' for none), as the API does; `yyyy-mm-dd` is accepted when typed too.
 */
export function DayField({
  value,
  onChange,
  min,
  max,
  error,
  sx,
  ...props
}: { value: string; onChange: (day: string) => void; min?: string; max?: string } & Omit<
  TextFieldProps,
  'value' | 'onChange'
>) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ? dayText(value) : '');
  const picker = useRef<HTMLInputElement>(null);
  // In step when the day changes from outside (a preset, "Limpiar", the calendar).
  useEffect(
    () =>
      setText((now) =>
        parseDay(now) === value || (!value && !now.trim()) ? now : value ? dayText(value) : '',
      ),
    [value],
  );
  const type = (s: string) => {
    setText(s);
    const day = parseDay(s);
    if (day) onChange(day);
    else if (!s.trim()) onChange('');
  };
  return (
    <TextField
      {...props}
      // Room for the whole "dd-mm-yyyy" and the calendar button, however tight the row.
      sx={[{ minWidth: 165, flexShrink: 0 }, ...(Array.isArray(sx) ? sx : [sx])]}
      value={text}
      onChange={(e) => type(e.target.value)}
      onBlur={() => value && setText(dayText(value))}
      error={Boolean(error) || (text.trim() !== '' && !parseDay(text))}
      placeholder={t('common.dayFormat')}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: 'numeric', autoComplete: 'off' },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                size="small"
                edge="end"
                aria-label={t('common.pickDay')}
                onClick={() => picker.current?.showPicker?.()}
              >
                <CalendarMonthIcon fontSize="small" />
              </IconButton>
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden
                value={value}
                min={min}
                max={max}
                onChange={(e) => onChange(e.target.value)}
                style={{
                  position: 'absolute',
                  right: 0,
                  bottom: 0,
                  width: 1,
                  height: 1,
                  opacity: 0,
                  border: 0,
                  padding: 0,
                  pointerEvents: 'none',
                }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

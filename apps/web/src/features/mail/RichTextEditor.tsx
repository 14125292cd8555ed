import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import RedoIcon from '@mui/icons-material/Redo';
import TitleIcon from '@mui/icons-material/Title';
import UndoIcon from '@mui/icons-material/Undo';
import { Box, Divider, FormHelperText, IconButton, Stack, Tooltip } from '@mui/material';
import { useEffect, useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

export interface RichTextEditorHandle {
  /** Inserts plain text at the caret (at the end when the editor has no caret). */
  insertText(text: string): void;
}

export interface RichTextEditorProps {
  value: string;
  onChange: (html: string) => void;
  label: string;
  placeholder?: string;
  error?: string;
  disabled?: boolean;
  ref?: Ref<RichTextEditorHandle>;
}

type Command = { key: string; icon: ReactNode; run: () => void };

/**
 * A small HTML editor: a contentEditable area with heading, bold, italic, underline, lists,
 * undo and redo (docs/development/screens.md#mail-composer). Pasted content arrives as plain text; the server sanitises
 * whatever it receives anyway.
 */
export function RichTextEditor({
  value,
  onChange,
  label,
  placeholder,
  error,
  disabled,
  ref,
}: RichTextEditorProps) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);

  // Controlled from outside (a template, a reset) without moving the caret while typing.
  useEffect(() => {
    const el = area.current;
    if (el && el.innerHTML !== value) el.innerHTML = value;
  }, [value]);

  const emit = () => {
    const el = area.current;
    if (!el) return;
    const html = el.innerHTML;
    // An editor left with only empty markup (<br>, <p></p>) is empty.
    const hasContent = Boolean(el.textContent?.trim()) || html.includes('<li');
    onChange(hasContent ? html : '');
  };

  const exec = (command: string, arg?: string) => {
    if (disabled) return;
    area.current?.focus();
    document.execCommand(command, false, arg);
    emit();
  };

  useImperativeHandle(ref, () => ({
    insertText(text: string) {
      const el = area.current;
      if (!el || disabled) return;
      const selection = window.getSelection();
      const inside =
        selection &&
        selection.rangeCount > 0 &&
        el.contains(selection.getRangeAt(0).commonAncestorContainer);
      el.focus();
      if (!inside && selection) {
        const range = document.createRange();
        range.selectNodeContents(el);
        range.collapse(false);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      document.execCommand('insertText', false, text);
      emit();
    },
  }));

  const commands: Command[] = [
    { key: 'heading', icon: <TitleIcon fontSize="small" />, run: () => exec('formatBlock', 'h3') },
    { key: 'bold', icon: <FormatBoldIcon fontSize="small" />, run: () => exec('bold') },
    { key: 'italic', icon: <FormatItalicIcon fontSize="small" />, run: () => exec('italic') },
    {
      key: 'underline',
      icon: <FormatUnderlinedIcon fontSize="small" />,
      run: () => exec('underline'),
    },
    {
      key: 'bulletList',
      icon: <FormatListBulletedIcon fontSize="small" />,
      run: () => exec('insertUnorderedList'),
    },
    {
      key: 'numberedList',
      icon: <FormatListNumberedIcon fontSize="small" />,
      run: () => exec('insertOrderedList'),
    },
    { key: 'undo', icon: <UndoIcon fontSize="small" />, run: () => exec('undo') },
    { key: 'redo', icon: <RedoIcon fontSize="small" />, run: () => exec('redo') },
  ];

  return (
    <Box>
      <Box
        sx={{
          border: 1,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          '&:focus-within': {
            borderColor: error ? 'error.main' : 'primary.main',
            boxShadow: (theme) =>
              `0 0 0 1px ${error ? theme.palette.error.main : theme.palette.primary.main}`,
          },
        }}
      >
        <Stack
          direction="row"
          spacing={0.5}
          role="toolbar"
          aria-label={label}
          sx={{ px: 1, py: 0.5, flexWrap: 'wrap', alignItems: 'center' }}
        >
          {commands.map((c, i) => (
            <Box key={c.key} sx={{ display: 'flex', alignItems: 'center' }}>
              {i === 6 && <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />}
              <Tooltip title={t(`mail.toolbar.${c.key}`)}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t(`mail.toolbar.${c.key}`)}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={c.run}
                    disabled={disabled}
                  >
                    {c.icon}
                  </IconButton>
                </span>
              </Tooltip>
            </Box>
          ))}
        </Stack>
        <Divider />
        <Box
          ref={area}
          role="textbox"
          aria-multiline="true"
          aria-label={label}
          aria-invalid={Boolean(error)}
          contentEditable={!disabled}
          suppressContentEditableWarning
          onInput={emit}
          onBlur={emit}
          onPaste={(e) => {
            e.preventDefault();
            document.execCommand('insertText', false, e.clipboardData.getData('text/plain'));
            emit();
          }}
          data-placeholder={placeholder}
          sx={{
            minHeight: 160,
            maxHeight: 420,
            overflowY: 'auto',
            px: 1.5,
            py: 1,
            outline: 'none',
            typography: 'body1',
            '& p, & h1, & h2, & h3': { my: 0.5 },
            '&:empty::before': { content: 'attr(data-placeholder)', color: 'text.disabled' },
          }}
        />
      </Box>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}

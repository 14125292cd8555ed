import {
  MAIL_ATTACHMENT_ACCEPT,
  MAIL_MAX_FILES,
  MAIL_PLACEHOLDERS,
  type FieldErrors,
  type MailUploadResult,
} from '@sigaf/contract';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import ListAltIcon from '@mui/icons-material/ListAlt';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { deleteAttachment, uploadAttachment, useMailTemplates } from './api';
import { formatSize, type MailDraft } from './draft';
import { MailTemplatesDialog } from './MailTemplatesDialog';
import { RichTextEditor, type RichTextEditorHandle } from './RichTextEditor';

interface Upload {
  key: number;
  name: string;
  progress: number;
  controller: AbortController;
}

export interface MailComposerProps {
  value: MailDraft;
  onChange: (draft: MailDraft) => void;
  /** Per-field messages (client checks or the server's 422): subject, text, CCRecipient, files. */
  errors?: FieldErrors;
  /** Offers this course's templates. */
  courseId?: number | null;
  disabled?: boolean;
  /** Told when uploads start and finish, so that the parent can wait before sending. */
  onUploadingChange?: (uploading: boolean) => void;
  /** Shows the placeholder chips ({nombre} ...); default true. */
  placeholders?: boolean;
}

/**
 * The e-mail composer of the ticket screens (docs/development/screens.md#mail-composer): subject, CC, a formatted body
 * with the student placeholders, and attachments uploaded at once with their progress,
 * shown as removable chips. It only edits a MailDraft; the parent sends it.
 */
export function MailComposer({
  value,
  onChange,
  errors = {},
  courseId,
  disabled,
  onUploadingChange,
  placeholders = true,
}: MailComposerProps) {
  const { t, i18n } = useTranslation();
  const editor = useRef<RichTextEditorHandle>(null);
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [managing, setManaging] = useState(false);
  const templates = useMailTemplates(courseId);
  const latest = useRef(value);
  latest.current = value;
  const counter = useRef(0);

  useEffect(() => onUploadingChange?.(uploads.length > 0), [uploads.length, onUploadingChange]);
  // Uploads still running when the composer goes away are abandoned.
  const running = useRef<Upload[]>([]);
  running.current = uploads;
  useEffect(() => () => running.current.forEach((u) => u.controller.abort()), []);

  const set = (patch: Partial<MailDraft>) => onChange({ ...latest.current, ...patch });

  const upload = async (file: File) => {
    const item: Upload = {
      key: ++counter.current,
      name: file.name,
      progress: 0,
      controller: new AbortController(),
    };
    setUploads((list) => [...list, item]);
    try {
      const result = await uploadAttachment(
        file,
        (p) =>
          setUploads((list) => list.map((u) => (u.key === item.key ? { ...u, progress: p } : u))),
        item.controller.signal,
      );
      set({ files: [...latest.current.files, result] });
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError'))
        setFileError(`${file.name}: ${err instanceof ApiError ? err.message : t('common.error')}`);
    } finally {
      setUploads((list) => list.filter((u) => u.key !== item.key));
    }
  };

  const choose = (list: FileList | null) => {
    setFileError(null);
    const files = [...(list ?? [])];
    if (latest.current.files.length + uploads.length + files.length > MAIL_MAX_FILES) {
      setFileError(t('mail.errors.tooManyFiles', { max: MAIL_MAX_FILES }));
      return;
    }
    for (const f of files) void upload(f);
    if (input.current) input.current.value = '';
  };

  const remove = async (file: MailUploadResult) => {
    setFileError(null);
    set({ files: latest.current.files.filter((f) => f.name !== file.name) });
    try {
      await deleteAttachment(file.name);
    } catch (err) {
      // Already gone or in use by a message: it stays on the server, not in this mail.
      if (!(err instanceof ApiError) || err.status !== 404)
        setFileError(err instanceof ApiError ? err.message : t('common.error'));
    }
  };

  const applyTemplate = (id: number) => {
    const tpl = templates.data?.find((x) => x.id === id);
    if (tpl) set({ subject: tpl.subject, html: tpl.html });
  };

  const first = (key: string) => errors[key]?.[0];

  return (
    <Stack spacing={2}>
      {Boolean(courseId) && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          {Boolean(templates.data?.length) && (
            <TextField
              select
              size="small"
              label={t('mail.template')}
              value=""
              onChange={(e) => applyTemplate(Number(e.target.value))}
              disabled={disabled}
              helperText={t('mail.templateHint')}
              sx={{ flex: 1 }}
            >
              {templates.data!.map((tpl) => (
                <MenuItem key={tpl.id} value={tpl.id}>
                  {tpl.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button
            startIcon={<ListAltIcon />}
            onClick={() => setManaging(true)}
            disabled={disabled}
            sx={{ mt: 0.5, flexShrink: 0 }}
          >
            {t('mail.templates.manage')}
          </Button>
        </Stack>
      )}
      {managing && courseId && (
        <MailTemplatesDialog courseId={courseId} onClose={() => setManaging(false)} />
      )}
      <TextField
        label={t('mail.subject')}
        value={value.subject}
        onChange={(e) => set({ subject: e.target.value })}
        error={Boolean(first('subject'))}
        helperText={first('subject')}
        disabled={disabled}
        slotProps={{ htmlInput: { maxLength: 255 } }}
        fullWidth
      />
      <TextField
        label={t('mail.cc')}
        value={value.cc}
        onChange={(e) => set({ cc: e.target.value })}
        error={Boolean(first('CCRecipient'))}
        helperText={first('CCRecipient') ?? t('mail.ccHint')}
        disabled={disabled}
        placeholder="jefatura@correo.cl; tutor@correo.cl"
        fullWidth
      />
      <RichTextEditor
        ref={editor}
        label={t('mail.body')}
        placeholder={t('mail.bodyPlaceholder')}
        value={value.html}
        onChange={(html) => set({ html })}
        error={first('text')}
        disabled={disabled}
      />
      {placeholders && (
        <Box>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
            {t('mail.placeholdersHint')}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {MAIL_PLACEHOLDERS.map((p) => (
              <Tooltip key={p} title={t(`mail.placeholder.${p}`)} describeChild>
                <Chip
                  size="small"
                  variant="outlined"
                  color="primary"
                  label={`{${p}}`}
                  onClick={() => editor.current?.insertText(`{${p}}`)}
                  disabled={disabled}
                />
              </Tooltip>
            ))}
          </Stack>
        </Box>
      )}
      <Box>
        <input
          ref={input}
          type="file"
          hidden
          multiple
          accept={MAIL_ATTACHMENT_ACCEPT}
          onChange={(e) => choose(e.target.files)}
          data-testid="mail-file-input"
        />
        <Button
          variant="outlined"
          startIcon={<AttachFileIcon />}
          onClick={() => input.current?.click()}
          disabled={disabled}
        >
          {t('mail.attach')}
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
          {t('mail.attachHint')}
        </Typography>
        {uploads.map((u) => (
          <Box key={u.key} sx={{ mt: 1 }}>
            <Typography variant="body2">{t('mail.uploading', { name: u.name })}</Typography>
            <LinearProgress
              variant="determinate"
              value={Math.round(u.progress * 100)}
              aria-label={t('mail.uploading', { name: u.name })}
            />
          </Box>
        ))}
        {value.files.length > 0 && (
          <Box sx={{ mt: 1 }}>
            <Typography variant="subtitle2">{t('mail.attachments')}</Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
              {value.files.map((f) => (
                <Chip
                  key={f.name}
                  label={`${f.originalName} (${formatSize(f.size, i18n.language)})`}
                  onDelete={disabled ? undefined : () => void remove(f)}
                />
              ))}
            </Stack>
          </Box>
        )}
        {(fileError || first('files')) && (
          <Alert
            severity="error"
            sx={{ mt: 1 }}
            onClose={fileError ? () => setFileError(null) : undefined}
          >
            {fileError ?? first('files')}
          </Alert>
        )}
      </Box>
    </Stack>
  );
}

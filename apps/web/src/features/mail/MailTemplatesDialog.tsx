import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { MAIL_PLACEHOLDERS, type FieldErrors, type MailTemplateProps } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import {
  deleteMailTemplate,
  saveMailTemplate,
  useMailTemplates,
  type MailTemplateDraft,
} from './api';
import { RichTextEditor, type RichTextEditorHandle } from './RichTextEditor';
import { useDiscardGuard } from '../../components/useDiscardGuard';

export interface MailTemplatesDialogProps {
  courseId: number;
  onClose: () => void;
}

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .trim();

/**
 * "Plantillas de correo" of a course: the list, a form to create or edit one (name, subject,
 * formatted body with the student placeholders), and deletion after confirmation.
 */
export function MailTemplatesDialog({ courseId, onClose }: MailTemplatesDialogProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const templates = useMailTemplates(courseId);
  const [editing, setEditing] = useState<{ id?: number; draft: MailTemplateDraft } | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<MailTemplateProps | null>(null);
  const editor = useRef<RichTextEditorHandle>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['mail-templates', courseId] });
  const open = (tpl?: MailTemplateProps) => {
    setErrors({});
    setEditing(
      tpl
        ? { id: tpl.id, draft: { name: tpl.name, subject: tpl.subject, html: tpl.html } }
        : { draft: { name: '', subject: '', html: '' } },
    );
  };
  const set = (patch: Partial<MailTemplateDraft>) =>
    setEditing((e) => (e ? { ...e, draft: { ...e.draft, ...patch } } : e));

  const save = async () => {
    if (!editing) return;
    const { draft } = editing;
    const found: FieldErrors = {};
    if (!draft.name.trim()) found.name = [t('mail.templates.errors.name')];
    if (!draft.subject.trim()) found.subject = [t('mail.errors.subject')];
    if (!plain(draft.html)) found.html = [t('mail.errors.body')];
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const res = await saveMailTemplate(
        courseId,
        { name: draft.name.trim(), subject: draft.subject.trim(), html: draft.html },
        editing.id,
      );
      notify(res.message || t('common.success'));
      setEditing(null);
      await refresh();
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.fieldErrors);
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!removing) return;
    try {
      const res = await deleteMailTemplate(removing.id);
      notify(res.message || t('common.success'));
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setRemoving(null);
    }
  };

  const first = (key: string) => errors[key]?.[0];
  const list = templates.data ?? [];
  // A template open in the editor is not dropped without asking.
  const { close, guard } = useDiscardGuard(editing !== null, onClose);

  return (
    <Dialog
      open
      onClose={busy ? undefined : close}
      maxWidth="md"
      fullWidth
      aria-labelledby="mail-templates-title"
    >
      <DialogTitle id="mail-templates-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {editing
          ? t(editing.id ? 'mail.templates.edit' : 'mail.templates.create')
          : t('mail.templates.title')}
      </DialogTitle>
      {(busy || templates.isFetching) && <LinearProgress />}
      <DialogContent>
        {!editing && (
          <Box sx={{ mt: 2 }}>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => open()}>
              {t('mail.templates.create')}
            </Button>
            {templates.isError && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {t('common.loadError')}
              </Alert>
            )}
            {templates.isSuccess && !list.length && (
              <Typography color="text.secondary" sx={{ mt: 2 }}>
                {t('mail.templates.empty')}
              </Typography>
            )}
            <List aria-label={t('mail.templates.title')}>
              {list.map((tpl) => (
                <ListItem
                  key={tpl.id}
                  divider
                  secondaryAction={
                    <>
                      <Tooltip title={t('common.edit')}>
                        <IconButton
                          aria-label={`${t('common.edit')} ${tpl.name}`}
                          onClick={() => open(tpl)}
                        >
                          <EditIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('common.delete')}>
                        <IconButton
                          aria-label={`${t('common.delete')} ${tpl.name}`}
                          onClick={() => setRemoving(tpl)}
                        >
                          <DeleteIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  }
                >
                  <ListItemText primary={tpl.name} secondary={tpl.subject} />
                </ListItem>
              ))}
            </List>
          </Box>
        )}
        {editing && (
          <Stack
            spacing={2}
            sx={{ mt: 2 }}
            component="form"
            id="mail-template-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <TextField
              label={t('mail.templates.name')}
              value={editing.draft.name}
              onChange={(e) => set({ name: e.target.value })}
              error={Boolean(first('name'))}
              helperText={first('name')}
              disabled={busy}
              slotProps={{ htmlInput: { maxLength: 100 } }}
              autoFocus
              fullWidth
            />
            <TextField
              label={t('mail.subject')}
              value={editing.draft.subject}
              onChange={(e) => set({ subject: e.target.value })}
              error={Boolean(first('subject'))}
              helperText={first('subject')}
              disabled={busy}
              slotProps={{ htmlInput: { maxLength: 255 } }}
              fullWidth
            />
            <RichTextEditor
              ref={editor}
              label={t('mail.body')}
              placeholder={t('mail.bodyPlaceholder')}
              value={editing.draft.html}
              onChange={(html) => set({ html })}
              error={first('html')}
              disabled={busy}
            />
            <Box>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 0.5 }}>
                {t('mail.placeholdersHint')}
              </Typography>
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                {MAIL_PLACEHOLDERS.map((p) => (
                  <Tooltip key={p} title={t(`mail.placeholder.${p}`)}>
                    <Chip
                      size="small"
                      variant="outlined"
                      color="primary"
                      label={`{${p}}`}
                      onClick={() => editor.current?.insertText(`{${p}}`)}
                      disabled={busy}
                    />
                  </Tooltip>
                ))}
              </Stack>
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {editing ? (
          <>
            <Button onClick={() => setEditing(null)} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="mail-template-form" variant="contained" disabled={busy}>
              {t('common.save')}
            </Button>
          </>
        ) : (
          <Button onClick={onClose}>{t('common.close')}</Button>
        )}
      </DialogActions>
      <ConfirmDialog
        open={Boolean(removing)}
        message={t('mail.templates.deleteConfirm', { name: removing?.name ?? '' })}
        onCancel={() => setRemoving(null)}
        onConfirm={remove}
      />
      {guard}
    </Dialog>
  );
}

/**
 * E-mail to students, for other features to embed:
 *   <MailComposer value={draft} onChange={setDraft} errors={errors} courseId={course.id} />
 *   then sendSingle(ticketId, mailDraftToBody(draft)) or sendMassive(ticketIds, mailDraftToBody(draft));
 *   <OutboxPanel courseId={course.id} /> lists the messages with their delivery state.
 */
export { MailComposer, type MailComposerProps } from './MailComposer';
export {
  emptyMailDraft,
  formatSize,
  mailDraftIsEmpty,
  mailDraftToBody,
  validateMailDraft,
  type MailDraft,
} from './draft';
export { MailPreviewDialog, type MailPreviewDialogProps } from './MailPreviewDialog';
export { MailTemplatesDialog, type MailTemplatesDialogProps } from './MailTemplatesDialog';
export { OutboxPanel, type OutboxPanelProps } from './OutboxPanel';
export {
  RichTextEditor,
  type RichTextEditorHandle,
  type RichTextEditorProps,
} from './RichTextEditor';
export {
  deleteAttachment,
  deleteMailTemplate,
  previewMail,
  saveMailTemplate,
  retryMessage,
  sendMassive,
  sendSingle,
  uploadAttachment,
  useMailTemplates,
  useOutbox,
  type MailRequestBody,
  type MailTemplateDraft,
  type OutboxFilters,
} from './api';
export { SendMailDialog, type SendMailDialogProps } from './SendMailDialog';

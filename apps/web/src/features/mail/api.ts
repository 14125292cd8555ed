import {
  MSG,
  type Collection,
  type Envelope,
  type MailMessageProps,
  type MailOutboxQuery,
  type MailPreviewResult,
  type MailQueuedResult,
  type MailStatus,
  type MailTemplateProps,
  type MailUploadResult,
} from '@sigaf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ApiError,
  buildUrl,
  extractFieldErrors,
  getData,
  isEnvelope,
  request,
  sendOnce,
  tokenStore,
} from '../../lib/api';

/**
 * Uploads one attachment with XMLHttpRequest, so that the composer can show its progress
 * (`onProgress` gets 0..1). Resolves with the server's `{url, name, size, mime, originalName}`.
 */
export function uploadAttachment(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<MailUploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl('/api/v2/mail/upload/file'));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const token = tokenStore.get();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && isEnvelope(body) && body.success) {
        onProgress(1);
        resolve(body._data as MailUploadResult);
        return;
      }
      if (xhr.status === 401) tokenStore.clear();
      const errors = extractFieldErrors(body);
      const message =
        errors.file?.[0] ??
        (isEnvelope(body) ? body.message : xhr.status >= 500 ? MSG.fatal : MSG.operationFailed);
      reject(new ApiError(xhr.status, message, errors, body));
    };
    xhr.onerror = () => reject(new ApiError(0, MSG.unavailable));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export const deleteAttachment = (name: string) =>
  request<Envelope<boolean>>('/api/v2/mail/delete/file', { method: 'POST', body: { name } });

/** The body of POST /mail/single and /mail/massive (the original's field names). */
export interface MailRequestBody {
  subject: string;
  text: string;
  CCRecipient: string;
  files: string[];
}

export const sendSingle = (ticketId: number, body: MailRequestBody) =>
  sendOnce<Envelope<MailQueuedResult>>('/api/v2/mail/single', { body: { ticketId, ...body } });

/** `ticketsId` goes as a JSON string, as the original client sends it. */
export const sendMassive = (ticketIds: number[], body: MailRequestBody) =>
  sendOnce<Envelope<MailQueuedResult>>('/api/v2/mail/massive', {
    body: { ticketsId: JSON.stringify(ticketIds), ...body },
  });

export const retryMessage = (id: number) =>
  request<Envelope<{ properties: MailMessageProps }>>(`/api/v2/mail/outbox/${id}/retry`, {
    method: 'POST',
    body: {},
  });

export type OutboxFilters = Pick<
  MailOutboxQuery,
  'status' | 'ticket_id' | 'course_id' | 'page' | 'perPage'
>;

/** The outbox page; refreshed every few seconds while a message is still on its way. */
export function useOutbox(filters: OutboxFilters) {
  return useQuery({
    queryKey: ['mail-outbox', filters],
    queryFn: () =>
      getData<Collection<MailMessageProps>>('/api/v2/mail/outbox', { query: { ...filters } }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.collections.some((c) => PENDING.includes(c.properties.status))
        ? 5000
        : false,
  });
}

const PENDING: MailStatus[] = ['queued', 'sending'];

/** The templates of a course (none without a course). */
export function useMailTemplates(courseId: number | null | undefined) {
  return useQuery({
    queryKey: ['mail-templates', courseId],
    enabled: Boolean(courseId),
    queryFn: async () =>
      (
        await getData<Collection<MailTemplateProps>>('/api/v2/mail/templates', {
          query: { course_id: courseId },
        })
      ).collections.map((c) => c.properties),
    staleTime: 60_000,
  });
}

/** What POST /mail/preview needs: the tickets, the subject and the HTML body. */
export const previewMail = (ticketIds: number[], body: Pick<MailRequestBody, 'subject' | 'text'>) =>
  getData<MailPreviewResult>('/api/v2/mail/preview', {
    method: 'POST',
    body: { ticketsId: ticketIds, subject: body.subject, text: body.text },
  });

/** The fields of a template as the form edits them. */
export interface MailTemplateDraft {
  name: string;
  subject: string;
  html: string;
}

/** Creates (no id) or updates a template of a course. */
export const saveMailTemplate = (courseId: number, draft: MailTemplateDraft, id?: number) =>
  id
    ? request<Envelope<{ properties: MailTemplateProps }>>(`/api/v2/mail/templates/${id}`, {
        method: 'PUT',
        body: { ...draft },
      })
    : request<Envelope<{ properties: MailTemplateProps }>>('/api/v2/mail/templates', {
        method: 'POST',
        body: { course_id: courseId, ...draft },
      });

export const deleteMailTemplate = (id: number) =>
  request<Envelope<null>>(`/api/v2/mail/templates/${id}`, { method: 'DELETE', body: {} });

import type { FastifyReply } from 'fastify';

/** Sends a generated file as a download (.xlsx or .csv), with a UTF-8 file name. */
export function sendFile(reply: FastifyReply, filename: string, body: Buffer) {
  const type = filename.endsWith('.csv')
    ? 'text/csv; charset=utf-8'
    : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  return reply
    .header('content-type', type)
    .header(
      'content-disposition',
      `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    )
    .send(body);
}

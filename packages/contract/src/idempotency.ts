/**
 * Sends made once (docs/development/api.md#idempotency): our client names each send (one click of
 * Enviar) with a fresh key in this header and repeats it on its retry; the server answers a repeat
 * with the first answer instead of sending again.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A key: 8 to 100 letters, digits, "-", "_", ":" or "." (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,100}$/;

/** How long a key's answer is kept: a repeat within it is answered, not sent. */
export const IDEMPOTENCY_KEY_SECONDS = 10 * 60;

/** Without a key, the same send (same user, recipients, subject, text) within this many seconds is one send. */
export const SAME_SEND_SECONDS = 10;

export const IDEMPOTENCY_MSG = {
  invalidKey:
    'La clave Idempotency-Key no es válida: use entre 8 y 100 letras, dígitos, "-", "_", ":" o ".".',
  keyReused:
    'Esta clave Idempotency-Key ya se usó para otro envío con otro contenido. Use una clave nueva para cada envío.',
  inProgress:
    'Este mismo envío se está procesando. Espere un momento y revise la bandeja de salida.',
} as const;

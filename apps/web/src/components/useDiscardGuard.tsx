import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * The one way a dialog holding unsaved input closes: `close` goes to the dialog's `onClose`
 * (Escape, a click outside), its ✕ and its Cancelar. With `dirty` it first asks «¿Descartar los
 * cambios?» (Seguir editando / Descartar) and closes only when confirmed; the caller renders `guard`.
 */
export function useDiscardGuard(
  dirty: boolean,
  onClose: () => void,
): { close: () => void; guard: ReactNode } {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const close = useCallback(() => (dirty ? setAsking(true) : onClose()), [dirty, onClose]);
  const guard = (
    <ConfirmDialog
      open={asking}
      title={t('common.discardTitle')}
      message={t('common.discardMessage')}
      cancelLabel={t('common.keepEditing')}
      confirmLabel={t('common.discard')}
      onCancel={() => setAsking(false)}
      onConfirm={() => {
        setAsking(false);
        onClose();
      }}
    />
  );
  return { close, guard };
}

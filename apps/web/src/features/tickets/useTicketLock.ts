import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api';
import { releaseLock, releaseLockOnExit, takeLock } from './api';

/** The server keeps a lock 15 minutes; while it is held, the open dialog renews it well before. */
const LOCK_RENEW_MS = 4 * 60_000;

/**
 * The edit lock of one ticket, taken when editing starts (not when the ticket is only viewed),
 * renewed while held, and given back when the dialog closes or the page goes away (a request
 * that outlives the page). `onLost` hears why a renewal was refused (someone freed and took it).
 */
export function useTicketLock(ticketId: number, onLost: (message: string) => void) {
  const [lockId, setLockId] = useState<number | null>(null);
  const held = useRef<number | null>(null);
  const pending = useRef<Promise<void> | null>(null);
  const alive = useRef(true);

  const hold = (id: number | null) => {
    held.current = id;
    setLockId(id);
  };

  /** Takes the lock unless held (one request however many callers); rejects with the server's refusal. */
  const acquire = useCallback((): Promise<void> => {
    if (held.current) return Promise.resolve();
    pending.current ??= takeLock(ticketId)
      .then((res) => {
        const id = res._data.properties.id;
        // Closed while the lock was on its way: give it back at once.
        if (!alive.current) return void releaseLock(id).catch(() => undefined);
        hold(id);
      })
      .finally(() => {
        pending.current = null;
      });
    return pending.current;
  }, [ticketId]);

  /** Gives the lock back (dialog closed, editing abandoned). */
  const release = useCallback(() => {
    const id = held.current;
    hold(null);
    if (id) void releaseLock(id).catch(() => undefined);
  }, []);

  /** The server freed the lock itself (a save does). */
  const forget = useCallback(() => hold(null), []);

  // The lock goes with the dialog: on unmount, and when the page itself goes away.
  useEffect(() => {
    alive.current = true;
    const onHide = () => held.current && releaseLockOnExit(held.current);
    window.addEventListener('pagehide', onHide);
    return () => {
      alive.current = false;
      window.removeEventListener('pagehide', onHide);
      if (held.current) void releaseLock(held.current).catch(() => undefined);
      held.current = null;
    };
  }, []);

  // Renew while held; losing it is told to the dialog.
  useEffect(() => {
    if (!lockId) return;
    const timer = setInterval(() => {
      takeLock(ticketId)
        .then((res) =>
          alive.current
            ? hold(res._data.properties.id)
            : void releaseLock(res._data.properties.id).catch(() => undefined),
        )
        .catch((err: unknown) => {
          if (!(err instanceof ApiError) || err.status !== 409) return;
          hold(null);
          onLost(err.message);
        });
    }, LOCK_RENEW_MS);
    return () => clearInterval(timer);
  }, [lockId, ticketId, onLost]);

  return { held: lockId !== null, heldRef: held, acquire, release, forget };
}

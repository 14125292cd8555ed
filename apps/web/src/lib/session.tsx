import type { RoleKey } from '@sigaf/contract';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { Resource, UserProperties } from '@sigaf/contract';
import { request, setUnauthorizedHandler, tokenStore } from './api';

/**
 * Who is signed in: the session every screen, component and helper reads. The sign-in screen and
 * its calls are in features/auth.
 */
export type SessionUser = UserProperties;

export async function fetchUser(token?: string): Promise<SessionUser> {
  const res = await request<{ user: Resource<UserProperties> }>('/api/auth/user', {
    token,
    skipAuthRedirect: token !== undefined,
  });
  return res.user.properties;
}

async function apiLogout(): Promise<void> {
  await request('/api/auth/logout', { skipAuthRedirect: true }).catch(() => undefined);
}

type Status = 'loading' | 'authenticated' | 'anonymous';

interface Session {
  status: Status;
  user: SessionUser | null;
  role: RoleKey | null;
  /** Stores the token and the user: the user is signed in. */
  signIn(token: string, user: SessionUser): void;
  /** Clears token and user locally (no server call). */
  clear(): void;
  /** Revokes the token on the server, then clears. */
  signOut(): Promise<void>;
}

const Ctx = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null>(null);
  const [status, setStatus] = useState<Status>(tokenStore.get() ? 'loading' : 'anonymous');

  const clear = useCallback(() => {
    tokenStore.clear();
    setUser(null);
    setStatus('anonymous');
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(clear);
    if (!tokenStore.get()) return;
    fetchUser()
      .then((u) => {
        if (u.isFirstLogin === 0) return clear();
        setUser(u);
        setStatus('authenticated');
      })
      .catch(clear);
  }, [clear]);

  const value = useMemo<Session>(
    () => ({
      status,
      user,
      role: (user?.role.key as RoleKey | null) ?? null,
      signIn: (token, u) => {
        tokenStore.set(token);
        setUser(u);
        setStatus('authenticated');
      },
      clear,
      signOut: async () => {
        await apiLogout();
        clear();
      },
    }),
    [status, user, clear],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSession(): Session {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

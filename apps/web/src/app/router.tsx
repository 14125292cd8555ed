import { SCREEN_ROUTES } from '@sigaf/contract';
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { Forbidden, NotFound } from '../components/StatusPages';
import LoginPage from '../features/auth/LoginPage';
import { useSession } from '../lib/session';
import { HomeScreen, Loading, ScreenBoundary, Shell } from './lazy';
import { preloadSignedIn, SCREEN_COMPONENTS } from './screens';
import { tokenStore } from '../lib/api';

/** Every route but / needs a signed-in user; without one, back to the login screen. */
function RequireSession() {
  const session = useSession();
  if (session.status === 'loading') return <Loading />;
  if (session.status !== 'authenticated') return <Navigate to="/" replace />;
  return <Outlet />;
}

function RoleGate({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const { role } = useSession();
  return role && roles.includes(role) ? <ScreenBoundary>{children}</ScreenBoundary> : <Forbidden />;
}

const routes: RouteObject[] = [
  { path: '/', element: <LoginPage preload={preloadSignedIn} /> },
  {
    element: <RequireSession />,
    children: [
      {
        path: '/my',
        element: (
          <ScreenBoundary>
            <Shell />
          </ScreenBoundary>
        ),
        children: [
          {
            index: true,
            element: (
              <ScreenBoundary>
                <HomeScreen />
              </ScreenBoundary>
            ),
          },
          ...SCREEN_ROUTES.map((s) => {
            const Screen = SCREEN_COMPONENTS[s.key]!;
            return {
              path: s.path,
              element: (
                <RoleGate roles={s.roles}>
                  <Screen />
                </RoleGate>
              ),
            };
          }),
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
  { path: '*', element: <NotFound /> },
];

/**
 * Without a stored token only the login screen is reachable (docs/development/screens.md#routes). Correcting the URL
 * before the router starts means the login screen is the first thing rendered, with no
 * intermediate redirect.
 */
function startAtLoginWithoutToken() {
  if (!tokenStore.get() && window.location.pathname !== '/')
    window.history.replaceState(null, '', '/');
}

export const createAppRouter = () => {
  startAtLoginWithoutToken();
  // With a stored token on a /my address, the layout and the screen asked for start loading at
  // once, while the session is checked, instead of one after the other.
  const { pathname } = window.location;
  if (tokenStore.get() && pathname.startsWith('/my'))
    void preloadSignedIn(pathname, { prefetch: true }).catch(() => undefined);
  return createBrowserRouter(routes);
};

import { APP_TITLE, FORM_RESET_DELAY_MS, PARTIAL_LOGOUT_DELAY_MS } from '@sigaf/contract';
import {
  AppBar,
  Box,
  Button,
  Card,
  CardContent,
  Container,
  Stack,
  Toolbar,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ApiError, tokenStore } from '../../lib/api';
import { fetchUser, useSession, type SessionUser } from '../../lib/session';
import { changeOwnPassword, login } from './api';
import { LoginField } from './LoginField';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { useLoginForm } from './useLoginForm';

/**
 * The validation library, the dialogs and the message are not part of the login screen's first
 * load: the rules load with the first check (the first field left or the first submit), the
 * waiting dialog and the message when a sign-in starts, the first-login dialog when a sign-in
 * turns out to be a first login.
 */
const loadFirstLoginDialog = () =>
  import('./FirstLoginDialog').then((m) => ({ default: m.FirstLoginDialog }));
const FirstLoginDialog = lazy(loadFirstLoginDialog);
const loadWaitingDialog = () =>
  import('../../components/WaitingDialog').then((m) => ({ default: m.WaitingDialog }));
const WaitingDialog = lazy(loadWaitingDialog);
const loadLoginSnack = () => import('./LoginSnack');
const LoginSnack = lazy(loadLoginSnack);

interface Pending {
  token: string;
  user: SessionUser;
  email: string;
}

/** The login screen (docs/development/screens.md#login): sign in, and the first-login password change. */
/**
 * `preload` loads the code of a signed-in screen (app/screens.tsx, handed in by the router, which
 * imports this page).
 */
export default function LoginPage({
  preload,
}: {
  preload: (pathname: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [waiting, setWaiting] = useState(false);
  /** Set by the first sign-in: the waiting dialog and the message stay mounted from then on. */
  const [signedInOnce, setSignedInOnce] = useState(false);
  const [snack, setSnack] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  /** The first-login dialog stays mounted once shown, so it closes with its transition. */
  const [dialogUsed, setDialogUsed] = useState(false);
  const [dialogKey, setDialogKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  /** Set while this page itself moves a just signed-in user to /my. */
  const enteringRef = useRef(false);
  // `signIn` is declared below; the form calls it only on a submit, after this render.
  const { field, onSubmit } = useLoginForm((v) => signIn(v.email, v.password));

  useEffect(() => {
    if (!dialogOpen) return;
    // Partial logout: the stored session goes, the token stays in memory for the change call.
    const timer = setTimeout(() => tokenStore.clear(), PARTIAL_LOGOUT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dialogOpen]);

  if (session.status === 'authenticated' && !enteringRef.current)
    return <Navigate to="/my" replace />;

  const signIn = async (email: string, password: string) => {
    setSignedInOnce(true);
    setWaiting(true);
    void loadLoginSnack().catch(() => undefined);
    // The signed-in application loads while the server checks the password.
    void preload('/my').catch(() => undefined);
    try {
      const { access_token } = await login(email, password);
      tokenStore.set(access_token);
      const user = await fetchUser(access_token);
      if (user.isFirstLogin === 0) {
        await loadFirstLoginDialog();
        pendingRef.current = { token: access_token, user, email };
        setPending(pendingRef.current);
        setDialogUsed(true);
        setDialogOpen(true);
        return;
      }
      // Mi agenda is an operator's start screen. Its code is loaded first (a failure shows on the
      // screen), then the session and the new URL are committed together, so the start screen is
      // on screen as soon as the URL changes.
      const start = user.role?.key === 'operator' ? '/my/agenda' : '/my';
      await preload(start).catch(() => undefined);
      enteringRef.current = true;
      flushSync(() => session.signIn(access_token, user));
      navigate(start, { replace: true, flushSync: true });
    } catch (err) {
      session.clear();
      setSnack(err instanceof ApiError && err.status === 429 ? err.message : t('auth.invalid'));
    } finally {
      setWaiting(false);
    }
  };

  const changePassword = async (password: string) => {
    const p = pendingRef.current;
    if (!p) return;
    setBusy(true);
    try {
      await changeOwnPassword(p.user, password, p.token);
      setDialogOpen(false);
      pendingRef.current = null;
      setPending(null);
      await signIn(p.email, password);
    } catch (err) {
      // The server's reason (too short, too common, the own name, the same as the temporary one), in Spanish.
      setSnack(
        err instanceof ApiError
          ? (err.fieldErrors.password?.[0] ?? err.message)
          : t('auth.changeFailed'),
      );
    } finally {
      setBusy(false);
    }
  };

  const cancelDialog = () => {
    setDialogOpen(false);
    pendingRef.current = null;
    setPending(null);
    session.clear();
    setTimeout(() => setDialogKey((k) => k + 1), FORM_RESET_DELAY_MS);
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: 'background.default',
      }}
    >
      <AppBar position="static">
        <Toolbar>
          <Typography
            variant="h6"
            component="div"
            sx={{ flexGrow: 1, fontSize: { xs: 13, sm: 18 } }}
          >
            {APP_TITLE.toUpperCase()}
          </Typography>
          <LanguageSwitch color="inherit" />
        </Toolbar>
      </AppBar>
      <Container
        component="main"
        maxWidth="xs"
        sx={{ flexGrow: 1, display: 'flex', alignItems: 'center' }}
      >
        <Card sx={{ width: '100%', mt: 6, mb: 6 }} elevation={3}>
          <Box sx={{ bgcolor: 'primary.main', color: 'white', px: 3, py: 2 }}>
            <Typography variant="h5" component="h1">
              {t('auth.signIn')}
            </Typography>
          </Box>
          <CardContent>
            <form onSubmit={onSubmit} noValidate>
              <Stack spacing={2.5} sx={{ mt: 1 }}>
                <LoginField
                  {...field('email')}
                  label={t('auth.email')}
                  type="email"
                  autoComplete="username"
                  autoFocus
                />
                <LoginField
                  {...field('password')}
                  label={t('auth.password')}
                  type="password"
                  autoComplete="current-password"
                />
                <Button type="submit" variant="contained" size="large" disabled={waiting}>
                  {t('auth.enter')}
                </Button>
              </Stack>
            </form>
          </CardContent>
        </Card>
      </Container>
      <Box component="footer" sx={{ textAlign: 'center', py: 2, color: 'text.secondary' }}>
        <Typography variant="body2" sx={{ letterSpacing: 6, fontWeight: 700 }}>
          S I G A F
        </Typography>
        <Typography variant="caption">© {new Date().getFullYear()}</Typography>
      </Box>
      {signedInOnce && (
        <Suspense fallback={null}>
          <WaitingDialog open={waiting} message={t('auth.wait')} />
        </Suspense>
      )}
      {dialogUsed && (
        <Suspense fallback={null}>
          <FirstLoginDialog
            key={dialogKey}
            open={dialogOpen && Boolean(pending)}
            busy={busy}
            onCancel={cancelDialog}
            onSubmit={changePassword}
          />
        </Suspense>
      )}
      {signedInOnce && (
        <Suspense fallback={null}>
          <LoginSnack message={snack} onClose={() => setSnack(null)} />
        </Suspense>
      )}
    </Box>
  );
}

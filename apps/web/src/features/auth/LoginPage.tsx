import { zodResolver } from '@hookform/resolvers/zod';
import { APP_TITLE, FORM_RESET_DELAY_MS, LOGIN_SNACKBAR_MS, loginSchema, PARTIAL_LOGOUT_DELAY_MS, type LoginInput } from '@sigaf/contract';
import { AppBar, Box, Button, Card, CardContent, Container, Snackbar, SnackbarContent, Stack, TextField, Toolbar, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { WaitingDialog } from '../../components/WaitingDialog';
import { ApiError, tokenStore } from '../../lib/api';
import { changeOwnPassword, fetchUser, login, type SessionUser } from './api';
import { FirstLoginDialog } from './FirstLoginDialog';
import { LanguageSwitch } from '../../app/layout/LanguageSwitch';
import { useSession } from './session';

interface Pending {
  token: string;
  user: SessionUser;
  email: string;
}

/** The login screen (SPEC.md §2, §4, §5): sign in, and the first-login password change. */
export default function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [waiting, setWaiting] = useState(false);
  const [snack, setSnack] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [dialogKey, setDialogKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  /** Set while this page itself moves a just signed-in user to /my. */
  const enteringRef = useRef(false);
  const { control, handleSubmit } = useForm<LoginInput>({
    resolver: zodResolver(loginSchema) as never,
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });

  useEffect(() => {
    if (!dialogOpen) return;
    // Partial logout: the stored session goes, the token stays in memory for the change call.
    const timer = setTimeout(() => tokenStore.clear(), PARTIAL_LOGOUT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dialogOpen]);

  if (session.status === 'authenticated' && !enteringRef.current) return <Navigate to="/my" replace />;

  const signIn = async (email: string, password: string) => {
    setWaiting(true);
    try {
      const { access_token } = await login(email, password);
      tokenStore.set(access_token);
      const user = await fetchUser(access_token);
      if (user.isFirstLogin === 0) {
        pendingRef.current = { token: access_token, user, email };
        setPending(pendingRef.current);
        setDialogOpen(true);
        return;
      }
      // Commit the session and the new URL together, so /my is on screen as soon as the URL changes.
      enteringRef.current = true;
      flushSync(() => session.signIn(access_token, user));
      // Mi agenda is an operator's start screen.
      navigate(user.role?.key === 'operator' ? '/my/agenda' : '/my', { replace: true, flushSync: true });
    } catch (err) {
      session.clear();
      setSnack(err instanceof ApiError && err.status === 429 ? err.message : t('auth.invalid'));
    } finally {
      setWaiting(false);
    }
  };

  const onSubmit = handleSubmit((v) => signIn(v.email, v.password));

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
      setSnack(err instanceof ApiError ? (err.fieldErrors.password?.[0] ?? err.message) : t('auth.changeFailed'));
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
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AppBar position="static">
        <Toolbar>
          <Typography variant="h6" component="div" sx={{ flexGrow: 1, fontSize: { xs: 13, sm: 18 } }}>
            {APP_TITLE.toUpperCase()}
          </Typography>
          <LanguageSwitch color="inherit" />
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="xs" sx={{ flexGrow: 1, display: 'flex', alignItems: 'center' }}>
        <Card sx={{ width: '100%', mt: 6, mb: 6 }} elevation={3}>
          <Box sx={{ bgcolor: 'primary.main', color: 'white', px: 3, py: 2 }}>
            <Typography variant="h5" component="h1">
              {t('auth.signIn')}
            </Typography>
          </Box>
          <CardContent>
            <form onSubmit={onSubmit} noValidate>
              <Stack spacing={2.5} sx={{ mt: 1 }}>
                <Controller
                  name="email"
                  control={control}
                  render={({ field, fieldState }) => (
                    <TextField {...field} label={t('auth.email')} type="email" autoComplete="username" autoFocus error={Boolean(fieldState.error)} helperText={fieldState.error?.message} size="medium" />
                  )}
                />
                <Controller
                  name="password"
                  control={control}
                  render={({ field, fieldState }) => (
                    <TextField {...field} label={t('auth.password')} type="password" autoComplete="current-password" error={Boolean(fieldState.error)} helperText={fieldState.error?.message} size="medium" />
                  )}
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
      <WaitingDialog open={waiting} message={t('auth.wait')} />
      <FirstLoginDialog key={dialogKey} open={dialogOpen && Boolean(pending)} busy={busy} onCancel={cancelDialog} onSubmit={changePassword} />
      <Snackbar open={Boolean(snack)} autoHideDuration={LOGIN_SNACKBAR_MS} onClose={() => setSnack(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        <SnackbarContent
          sx={{ bgcolor: 'primary.main' }}
          message={snack}
          action={
            <Button color="inherit" size="small" onClick={() => setSnack(null)}>
              {t('auth.close')}
            </Button>
          }
        />
      </Snackbar>
    </Box>
  );
}

import { APP_TITLE, APP_VERSION } from '@sigaf/contract';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import HomeIcon from '@mui/icons-material/Home';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import {
  AppBar,
  Avatar,
  Box,
  Collapse,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Toolbar,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSession } from '../../lib/session';
import { initials } from '../../lib/initials';
import { roleLabel } from '../../lib/roles';
import { buildMenu } from '../navigation';
import { SCREEN_ICONS } from '../screenIcons';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { ReminderBadge } from '../../features/reminders/ReminderBadge';
import { useSearchShortcut } from '../../components/useSearchShortcut';

const WIDTH = 260;
const DRAWER_KEY = 'sigaf.drawer';
const GROUPS_KEY = 'sigaf.drawer.groups';

function usePersistent<T>(key: string, initial: T): [T, (v: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? initial : (JSON.parse(raw) as T);
    } catch {
      return initial;
    }
  });
  return [
    value,
    (v: T) => {
      setValue(v);
      localStorage.setItem(key, JSON.stringify(v));
    },
  ];
}

/** The /my layout: app bar, navigation drawer by role, user, logout, version (docs/development/screens.md#layout). */
export default function MyLayout() {
  const { t } = useTranslation();
  useSearchShortcut();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const mobile = useMediaQuery('(max-width:959.95px)');
  const [open, setOpen] = usePersistent(DRAWER_KEY, true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [expanded, setExpanded] = usePersistent<Record<string, boolean>>(GROUPS_KEY, {});
  const [confirm, setConfirm] = useState(false);
  const menu = buildMenu(session.role);
  const user = session.user!;

  const link = (path: string, key: string, nested = false) => {
    const Icon = SCREEN_ICONS[key];
    return (
      <ListItemButton
        key={key}
        component={NavLink}
        to={`/my/${path}`}
        onClick={() => mobile && setMobileOpen(false)}
        sx={{ pl: nested ? 4 : 2, '&.active': { bgcolor: 'rgba(255,255,255,0.16)' } }}
      >
        {Icon && (
          <ListItemIcon sx={{ color: 'inherit', minWidth: 36 }}>
            <Icon fontSize="small" />
          </ListItemIcon>
        )}
        <ListItemText primary={t(`nav.${key}`)} />
      </ListItemButton>
    );
  };

  // The drawer is a landmark of its own (who is signed in, the menu, sign-out, the version).
  const content = (
    <Box
      component="aside"
      aria-label={t('app.sidebar')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', color: 'white' }}
    >
      <Box sx={{ p: 2, display: 'flex', gap: 1.5, alignItems: 'center' }}>
        <Avatar sx={{ bgcolor: 'secondary.main' }}>{initials(user.name)}</Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap title={user.name}>
            {user.name}
          </Typography>
          <Typography variant="body2" sx={{ opacity: 0.8 }}>
            {roleLabel(t, user.role)}
          </Typography>
        </Box>
      </Box>
      <Divider sx={{ borderColor: 'rgba(255,255,255,0.2)' }} />
      <List component="nav" sx={{ flexGrow: 1, overflowY: 'auto' }} aria-label={t('app.short')}>
        <ListItemButton
          component={NavLink}
          to="/my"
          end
          sx={{ '&.active': { bgcolor: 'rgba(255,255,255,0.16)' } }}
        >
          <ListItemIcon sx={{ color: 'inherit', minWidth: 36 }}>
            <HomeIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('nav.home')} />
        </ListItemButton>
        {menu.flat.map((s) => link(s.path, s.key))}
        {menu.groups.map(({ group, items }) => {
          const isOpen = expanded[group] ?? location.pathname.includes(`/${group}/`);
          return (
            <Box key={group}>
              <ListItemButton
                onClick={() => setExpanded({ ...expanded, [group]: !isOpen })}
                aria-expanded={isOpen}
              >
                <ListItemText primary={t(`nav.${group}`)} />
                {isOpen ? <ExpandLess /> : <ExpandMore />}
              </ListItemButton>
              <Collapse in={isOpen} timeout="auto" unmountOnExit>
                <List component="div" disablePadding>
                  {items.map((s) => link(s.path, s.key, true))}
                </List>
              </Collapse>
            </Box>
          );
        })}
      </List>
      <Divider sx={{ borderColor: 'rgba(255,255,255,0.2)' }} />
      <ListItemButton onClick={() => setConfirm(true)}>
        <ListItemIcon sx={{ color: 'inherit', minWidth: 36 }}>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={t('auth.logout')} />
      </ListItemButton>
      <Typography variant="caption" sx={{ p: 1.5, opacity: 0.8 }}>
        {t('app.footer', { version: APP_VERSION, year: new Date().getFullYear() })}
      </Typography>
    </Box>
  );

  const paper = { width: WIDTH, bgcolor: '#05445A', boxSizing: 'border-box' as const };
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      {/* Printed, a page is its content: no app bar, no menu. */}
      <AppBar
        position="fixed"
        color="inherit"
        elevation={1}
        sx={{ zIndex: (th) => th.zIndex.drawer + 1, bgcolor: 'white', displayPrint: 'none' }}
      >
        <Toolbar>
          <IconButton
            edge="start"
            aria-label={t('app.toggleMenu')}
            onClick={() => (mobile ? setMobileOpen(!mobileOpen) : setOpen(!open))}
            sx={{ mr: 1 }}
          >
            <MenuIcon />
          </IconButton>
          {/* The whole name from a laptop's width; on a phone or a tablet, the short one on one line. */}
          <Typography
            variant="h6"
            component="div"
            color="primary"
            data-testid="app-title"
            sx={{ flexGrow: 1, minWidth: 0, fontSize: { xs: 16, md: 18 }, fontWeight: 600 }}
          >
            <Box component="span" sx={{ display: { xs: 'none', md: 'inline' } }}>
              {APP_TITLE.toUpperCase()}
            </Box>
            <Box component="span" sx={{ display: { xs: 'inline', md: 'none' } }}>
              {t('app.short')}
            </Box>
          </Typography>
          <ReminderBadge />
          <LanguageSwitch />
        </Toolbar>
      </AppBar>
      {mobile ? (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          slotProps={{ paper: { sx: paper } }}
          ModalProps={{ keepMounted: true }}
          sx={{ displayPrint: 'none' }}
        >
          {content}
        </Drawer>
      ) : (
        <Drawer
          variant="persistent"
          open={open}
          slotProps={{ paper: { sx: { ...paper, top: 64, height: 'calc(100% - 64px)' } } }}
          sx={{ width: open ? WIDTH : 0, flexShrink: 0, displayPrint: 'none' }}
        >
          {content}
        </Drawer>
      )}
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          p: { xs: 1.5, sm: 3 },
          mt: 8,
          minWidth: 0,
          '@media print': { mt: 0, p: 0 },
        }}
      >
        <Outlet />
      </Box>
      <ConfirmDialog
        open={confirm}
        message={t('auth.logoutConfirm')}
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          await session.signOut();
          setConfirm(false);
          navigate('/', { replace: true });
        }}
      />
    </Box>
  );
}

import DnsOutlined from '@mui/icons-material/DnsOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';

/** The admin sections, in GZCTF's order, plus the stored files. */
export const ADMIN_SECTIONS: ReadonlyArray<{ path: string; icon: SvgIconComponent }> = [
  { path: 'games', icon: FlagOutlined },
  { path: 'teams', icon: GroupsOutlined },
  { path: 'users', icon: PersonOutline },
  { path: 'instances', icon: DnsOutlined },
  { path: 'logs', icon: ReceiptLongOutlined },
  { path: 'files', icon: FolderOutlined },
  { path: 'settings', icon: SettingsOutlined },
];

/** The admin area's frame: a heading and a tab per section; the section's page renders below. */
export default function AdminLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const section = /^\/admin\/([^/]+)/i.exec(pathname)?.[1]?.toLowerCase();
  const current = ADMIN_SECTIONS.some((item) => item.path === section) ? section : false;
  return (
    <Box>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
        {t('admin:title')}
      </Typography>
      <Box component="nav" aria-label={t('admin:sections')} sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          aria-label={t('admin:sections')}
          value={current}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
        >
          {ADMIN_SECTIONS.map(({ path, icon: Icon }) => (
            <Tab
              key={path}
              value={path}
              label={t(`admin:section.${path}`)}
              icon={<Icon fontSize="small" />}
              iconPosition="start"
              component={RouterLink}
              to={`/admin/${path}`}
              aria-current={current === path ? 'page' : undefined}
              sx={{ minHeight: 48 }}
            />
          ))}
        </Tabs>
      </Box>
      <Outlet />
    </Box>
  );
}

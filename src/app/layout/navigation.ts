import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import type { SvgIconComponent } from '@mui/icons-material';

export interface NavItem {
  to: string;
  /** Key under `common:nav`. */
  label: 'home' | 'games' | 'teams' | 'posts' | 'about' | 'admin';
  icon: SvgIconComponent;
  /** Only shown to admins (spec §6: the admin routes are separate from public pages). */
  adminOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'home', icon: HomeOutlined },
  { to: '/games', label: 'games', icon: FlagOutlined },
  { to: '/teams', label: 'teams', icon: GroupsOutlined },
  { to: '/posts', label: 'posts', icon: ArticleOutlined },
  { to: '/about', label: 'about', icon: InfoOutlined },
  { to: '/admin', label: 'admin', icon: AdminPanelSettingsOutlined, adminOnly: true },
];

export const visibleNavItems = (isAdmin: boolean) => NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin);

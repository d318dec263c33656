import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { NavItem } from './navigation';

interface Props {
  id: string;
  open: boolean;
  title: string;
  items: readonly NavItem[];
  onClose: () => void;
}

/** The navigation on narrow screens, behind the app bar's menu button. */
export default function NavDrawer({ id, open, title, items, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Drawer id={id} open={open} onClose={onClose} sx={{ display: { md: 'none' } }}>
      <Box component="nav" aria-label={t('common:nav.main')} sx={{ width: 260 }}>
        <Typography variant="h6" component="p" noWrap sx={{ px: 2, py: 2, fontWeight: 700 }}>
          {title}
        </Typography>
        <List>
          {items.map((item) => (
            <ListItemButton
              key={item.to}
              component={NavLink}
              to={item.to}
              end={item.to === '/'}
              onClick={onClose}
              sx={{ '&.active': { color: 'primary.main', bgcolor: 'action.selected' } }}
            >
              <ListItemIcon sx={{ color: 'inherit' }}>
                <item.icon />
              </ListItemIcon>
              <ListItemText primary={t(`common:nav.${item.label}`)} />
            </ListItemButton>
          ))}
        </List>
      </Box>
    </Drawer>
  );
}

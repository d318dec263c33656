import Chip, { type ChipProps } from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { Role } from '../api';

export const ROLES: readonly Role[] = ['Banned', 'User', 'Monitor', 'Admin'];

const COLORS: Record<Role, ChipProps['color']> = {
  Banned: 'default',
  User: 'primary',
  Monitor: 'warning',
  Admin: 'error',
};

export function RoleChip({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`common:role.${role}`)}
      color={COLORS[role]}
      variant={role === 'User' ? 'outlined' : 'filled'}
      sx={role === 'Banned' ? { textDecoration: 'line-through' } : undefined}
    />
  );
}

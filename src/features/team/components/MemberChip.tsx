import StarRounded from '@mui/icons-material/StarRounded';
import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { TeamUserInfoModel } from '../api';

/** A member with avatar; the captain gets a star and says so to screen readers. */
export function MemberChip({ member }: { member: TeamUserInfoModel }) {
  const { t } = useTranslation();
  const name = member.userName ?? '';
  return (
    <Chip
      variant="outlined"
      color={member.captain ? 'warning' : 'default'}
      avatar={
        <Avatar src={member.avatar ?? undefined} alt="">
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
      }
      label={
        <>
          {name}
          {member.captain && (
            <StarRounded
              titleAccess={t('team:captain')}
              sx={{ fontSize: 16, ml: 0.5, verticalAlign: 'text-bottom', color: 'warning.main' }}
            />
          )}
        </>
      }
    />
  );
}

import LockOutlined from '@mui/icons-material/LockOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeamInfoModel } from '../api';
import { MemberChip } from './MemberChip';

interface Props {
  team: TeamInfoModel;
  isCaptain: boolean;
  onManage: () => void;
  onLeave: () => void;
}

/** One of my teams: who is in it, whether it is locked, and what I may do with it. */
export function TeamCard({ team, isCaptain, onManage, onLeave }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const name = team.name ?? '';
  const members = team.members ?? [];
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardHeader
        avatar={
          <Avatar src={team.avatar ?? undefined} alt="" sx={{ width: 48, height: 48, bgcolor: 'primary.main' }}>
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
        }
        title={
          <Typography id={titleId} variant="h6" component="h2" sx={{ lineHeight: 1.3, wordBreak: 'break-word' }}>
            {name}
          </Typography>
        }
        subheader={
          <Stack direction="row" spacing={0.75} sx={{ mt: 0.5, flexWrap: 'wrap', gap: 0.75 }}>
            <Chip
              size="small"
              label={isCaptain ? t('team:role.captain') : t('team:role.member')}
              color={isCaptain ? 'primary' : 'default'}
            />
            {team.locked && (
              <Chip size="small" color="warning" variant="outlined" icon={<LockOutlined />} label={t('team:locked')} />
            )}
          </Stack>
        }
        sx={{ pb: 1, '& .MuiCardHeader-content': { minWidth: 0 } }}
      />
      <CardContent sx={{ pt: 0, flex: 1 }}>
        <Typography
          variant="body2"
          color={team.bio ? 'text.primary' : 'text.secondary'}
          sx={{ mb: 2, fontStyle: team.bio ? 'normal' : 'italic', wordBreak: 'break-word' }}
        >
          {team.bio || t('team:noBio')}
        </Typography>
        <Typography variant="overline" color="text.secondary" component="h3">
          {t('team:membersCount', { number: members.length })}
        </Typography>
        <Stack
          direction="row"
          sx={{ flexWrap: 'wrap', gap: 1, mt: 0.5 }}
          component="ul"
          aria-label={t('team:members')}
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {members.map((member) => (
            <li key={member.id}>
              <MemberChip member={member} />
            </li>
          ))}
        </Stack>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, justifyContent: 'flex-end' }}>
        {isCaptain ? (
          <Button
            variant="contained"
            startIcon={<ManageAccountsOutlined />}
            onClick={onManage}
            aria-label={t('team:manageNamed', { name })}
          >
            {t('team:manage')}
          </Button>
        ) : (
          <Button
            color="error"
            variant="outlined"
            startIcon={<LogoutOutlined />}
            onClick={onLeave}
            aria-label={t('team:leaveNamed', { name })}
          >
            {t('team:leave')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

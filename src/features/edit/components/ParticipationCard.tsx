import ExpandMoreOutlined from '@mui/icons-material/ExpandMoreOutlined';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import FormControl from '@mui/material/FormControl';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { memo, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParticipationInfoModel, ParticipationStatus } from '../api';
import { reviewActions, STATUS_COLOR } from '../lib/participation';

const ACTION_COLOR: Record<ParticipationStatus, 'success' | 'error' | 'warning' | 'inherit'> = {
  Accepted: 'success',
  Rejected: 'error',
  Suspended: 'warning',
  Pending: 'inherit',
  Unsubmitted: 'inherit',
};

export interface ParticipationCardProps {
  participation: ParticipationInfoModel;
  /** The game's divisions; none means the game has no divisions to choose from. */
  divisions: readonly string[];
  busy: boolean;
  onStatus: (participation: ParticipationInfoModel, status: ParticipationStatus) => void;
  onDivision: (participation: ParticipationInfoModel, division: string) => void;
}

/**
 * One team's participation: avatar and name, status, the division (changeable when the game has
 * divisions), the status moves the state machine allows, and the members, expandable. Memoised:
 * a review patches one row of the page, and only that card draws again.
 */
export const ParticipationCard = memo(function ParticipationCard({
  participation,
  divisions,
  busy,
  onStatus,
  onDivision,
}: ParticipationCardProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const membersId = useId();
  const divisionId = useId();
  const { team, status } = participation;
  const name = team.name ?? `#${team.id}`;
  const members = team.members ?? [];
  const registered = new Set(participation.registeredMembers);
  const division = participation.division ?? '';
  // A division the game no longer lists stays selectable so the select shows what is stored.
  const options = division && !divisions.includes(division) ? [...divisions, division] : divisions;

  return (
    <Card component="li" variant="outlined" aria-label={name} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
          <Avatar src={team.avatar ?? undefined} alt={name}>
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t('edit:review.memberCount', { count: members.length })}
            </Typography>
          </Stack>
          <Chip
            size="small"
            color={STATUS_COLOR[status]}
            label={t(`edit:review.status.${status}`)}
            aria-label={t('edit:review.statusOf', { team: name, status: t(`edit:review.status.${status}`) })}
          />
        </Stack>
        {options.length > 0 && (
          <FormControl size="small" sx={{ minWidth: 180 }}>
            <InputLabel id={divisionId}>{t('edit:review.division')}</InputLabel>
            <Select
              labelId={divisionId}
              label={t('edit:review.division')}
              value={division}
              disabled={busy}
              onChange={(event) => onDivision(participation, event.target.value)}
              inputProps={{ 'aria-label': t('edit:review.divisionOf', { team: name }) }}
            >
              {options.map((item) => (
                <MenuItem key={item} value={item}>
                  {item}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {reviewActions(status).map((target) => (
            <Button
              key={target}
              variant="outlined"
              color={ACTION_COLOR[target]}
              disabled={busy}
              onClick={() => onStatus(participation, target)}
              aria-label={t(`edit:review.action.${target}Team`, { team: name })}
            >
              {t(`edit:review.action.${target}`)}
            </Button>
          ))}
          <Tooltip title={t('edit:review.members')}>
            <IconButton
              aria-expanded={open}
              aria-controls={membersId}
              aria-label={t('edit:review.membersOf', { team: name })}
              onClick={() => setOpen((value) => !value)}
              sx={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 150ms' }}
            >
              <ExpandMoreOutlined />
            </IconButton>
          </Tooltip>
        </Stack>
      </Stack>
      <Collapse in={open} id={membersId} unmountOnExit>
        <List dense aria-label={t('edit:review.membersOf', { team: name })}>
          {members.map((member) => (
            <ListItem key={member.userId ?? member.userName}>
              <ListItemAvatar>
                <Avatar src={member.avatar ?? undefined} alt={member.userName ?? ''} sx={{ width: 32, height: 32 }}>
                  {(member.userName ?? '?').slice(0, 1).toUpperCase()}
                </Avatar>
              </ListItemAvatar>
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <span>{member.userName}</span>
                    {member.userId === team.captainId && (
                      <Chip size="small" variant="outlined" label={t('edit:review.captain')} />
                    )}
                    {member.userId && registered.has(member.userId) && (
                      <Chip size="small" color="primary" variant="outlined" label={t('edit:review.registered')} />
                    )}
                  </Stack>
                }
                secondary={[member.realName, member.stdNumber, member.email].filter(Boolean).join(' · ') || undefined}
              />
            </ListItem>
          ))}
        </List>
      </Collapse>
    </Card>
  );
});

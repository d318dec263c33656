import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import StarOutlineRounded from '@mui/icons-material/StarOutlineRounded';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/shared/lib/fileSize';
import { isAcceptedImage } from '@/shared/lib/images';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { ImageFileButton } from '@/shared/ui/ImageFileButton';
import {
  avatarBody,
  useTeamAvatarMutation,
  useTeamDeleteTeamMutation,
  useTeamInviteCodeQuery,
  useTeamKickUserMutation,
  useTeamTransferMutation,
  useTeamUpdateInviteTokenMutation,
  useTeamUpdateTeamMutation,
  type TeamInfoModel,
  type TeamUserInfoModel,
} from '../api';
import { CopyButton } from '@/shared/ui/CopyButton';
import { TeamFields, teamProblems } from './TeamFields';

/** The server takes avatars of at most 3 MiB (reference §2.8). */
export const MAX_AVATAR_BYTES = 3 * 1024 * 1024;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function ProfileForm({ team }: { team: TeamInfoModel }) {
  const { t } = useTranslation();
  const [name, setName] = useState(team.name ?? '');
  const [bio, setBio] = useState(team.bio ?? '');
  const [update, { isLoading }] = useTeamUpdateTeamMutation();
  const { name: nameProblem, bio: bioProblem } = teamProblems(name, bio);
  const pristine = name === (team.name ?? '') && bio === (team.bio ?? '');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (nameProblem || bioProblem || pristine) return;
    void update({ id: team.id, teamUpdateModel: { name: name.trim(), bio: bio.trim() || null } }).catch(
      () => undefined,
    );
  }

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} sx={{ flex: 1 }}>
      <TeamFields autoFocus name={name} bio={bio} onName={setName} onBio={setBio} nameProblem={nameProblem} />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          loading={isLoading}
          disabled={pristine || Boolean(nameProblem || bioProblem)}
        >
          {t('team:manageDialog.save')}
        </Button>
      </Box>
    </Stack>
  );
}

function AvatarPicker({ team }: { team: TeamInfoModel }) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string>();
  const [upload, { isLoading }] = useTeamAvatarMutation();
  const name = team.name ?? '';

  function choose(file: File | undefined) {
    if (!file) return;
    const found = !isAcceptedImage(file)
      ? 'team:avatar.type'
      : file.size > MAX_AVATAR_BYTES
        ? 'team:avatar.size'
        : undefined;
    setProblem(found);
    if (!found) void upload({ id: team.id, body: avatarBody(file) }).catch(() => undefined);
  }

  return (
    <Stack spacing={1} sx={{ alignItems: 'center', width: { sm: 168 }, flexShrink: 0 }}>
      <Avatar
        src={team.avatar ?? undefined}
        alt=""
        sx={{ width: 88, height: 88, fontSize: 36, bgcolor: 'primary.main' }}
      >
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <ImageFileButton
        size="small"
        startIcon={<PhotoCameraOutlined />}
        loading={isLoading}
        inputTestId="team-avatar-input"
        onFile={choose}
      >
        {t('team:avatar.change')}
      </ImageFileButton>
      {problem && (
        <Alert severity="error" sx={{ py: 0 }}>
          {t(problem, { size: formatFileSize(MAX_AVATAR_BYTES) })}
        </Alert>
      )}
    </Stack>
  );
}

function InviteCode({ team }: { team: TeamInfoModel }) {
  const { t } = useTranslation();
  const { data: code, isFetching } = useTeamInviteCodeQuery({ id: team.id });
  const [refresh, { isLoading }] = useTeamUpdateInviteTokenMutation();
  return (
    <Stack spacing={1}>
      <TextField
        fullWidth
        label={t('team:invite.label')}
        value={code ?? ''}
        placeholder={isFetching ? t('team:invite.loading') : undefined}
        onFocus={(event) => event.target.select()}
        slotProps={{
          htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace', fontSize: 14 } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <CopyButton text={code ?? ''} label={t('team:invite.copy')} disabled={!code} size="medium" />
                <Tooltip title={t('team:invite.refresh')}>
                  <span>
                    <IconButton
                      aria-label={t('team:invite.refresh')}
                      disabled={isLoading}
                      onClick={() => void refresh({ id: team.id }).catch(() => undefined)}
                    >
                      <AutorenewOutlined />
                    </IconButton>
                  </span>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      <Typography variant="body2" color="text.secondary">
        {t('team:invite.hint')}
      </Typography>
    </Stack>
  );
}

function Members({ team, onTransferred }: { team: TeamInfoModel; onTransferred: () => void }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [kick] = useTeamKickUserMutation();
  const [transfer] = useTeamTransferMutation();
  const teamName = team.name ?? '';

  async function kickMember(member: TeamUserInfoModel) {
    const confirmed = await confirm({
      title: t('team:kickConfirm.title'),
      message: t('team:kickConfirm.message', { userName: member.userName, name: teamName }),
      confirmLabel: t('team:kickConfirm.confirm'),
      destructive: true,
    });
    if (confirmed && member.id) await kick({ id: team.id, userId: member.id }).catch(() => undefined);
  }

  async function makeCaptain(member: TeamUserInfoModel) {
    const confirmed = await confirm({
      title: t('team:transferConfirm.title'),
      message: t('team:transferConfirm.message', { userName: member.userName, name: teamName }),
      confirmLabel: t('team:transferConfirm.confirm'),
    });
    if (!confirmed || !member.id) return;
    try {
      await transfer({ id: team.id, teamTransferModel: { newCaptainId: member.id } }).unwrap();
      onTransferred();
    } catch {
      // Announced by the notification listener.
    }
  }

  return (
    <List disablePadding aria-label={t('team:members')}>
      {(team.members ?? []).map((member) => {
        const name = member.userName ?? '';
        return (
          <ListItem
            key={member.id}
            disableGutters
            secondaryAction={
              member.captain ? undefined : (
                <Stack direction="row" spacing={0.5}>
                  <Tooltip title={t('team:makeCaptain', { userName: name })}>
                    <IconButton
                      aria-label={t('team:makeCaptain', { userName: name })}
                      onClick={() => void makeCaptain(member)}
                    >
                      <StarOutlineRounded />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('team:kick', { userName: name })}>
                    <IconButton
                      aria-label={t('team:kick', { userName: name })}
                      color="error"
                      onClick={() => void kickMember(member)}
                    >
                      <PersonRemoveOutlined />
                    </IconButton>
                  </Tooltip>
                </Stack>
              )
            }
          >
            <ListItemAvatar>
              <Avatar src={member.avatar ?? undefined} alt="">
                {name.slice(0, 1).toUpperCase()}
              </Avatar>
            </ListItemAvatar>
            <ListItemText
              primary={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <span>{name}</span>
                  {member.captain && <Chip size="small" color="warning" label={t('team:captain')} />}
                </Stack>
              }
              secondary={member.bio || undefined}
              slotProps={{ secondary: { noWrap: true } }}
            />
          </ListItem>
        );
      })}
    </List>
  );
}

/**
 * Everything a captain may do with a team: rename, bio, avatar, invite code, members (kick, hand
 * over the captaincy) and deleting the team. Refusals (a locked team in a running game, the
 * captaincy limit) come from the server and are announced centrally.
 */
export function ManageTeamDialog({ team, onClose }: { team: TeamInfoModel; onClose: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const confirm = useConfirm();
  const [deleteTeam, { isLoading: deleting }] = useTeamDeleteTeamMutation();
  const name = team.name ?? '';

  async function remove() {
    const confirmed = await confirm({
      title: t('team:deleteConfirm.title'),
      message: t('team:deleteConfirm.message', { name }),
      confirmLabel: t('team:deleteConfirm.confirm'),
      destructive: true,
    });
    if (!confirmed) return;
    try {
      await deleteTeam({ id: team.id }).unwrap();
      onClose();
    } catch {
      // Announced by the notification listener.
    }
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={fullScreen}>
      <DialogTitle id={titleId}>{t('team:manageDialog.title', { name })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={3}>
          {team.locked && <Alert severity="warning">{t('team:lockedHint')}</Alert>}
          <Section title={t('team:manageDialog.profile')}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
              <AvatarPicker team={team} />
              <ProfileForm key={`${team.name}\n${team.bio}`} team={team} />
            </Stack>
          </Section>
          <Divider />
          <Section title={t('team:invite.title')}>
            <InviteCode team={team} />
          </Section>
          <Divider />
          <Section title={t('team:membersCount', { number: team.members?.length ?? 0 })}>
            <Members team={team} onTransferred={onClose} />
          </Section>
          <Divider />
          <Section title={t('team:manageDialog.danger')}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
                {t('team:manageDialog.deleteHint')}
              </Typography>
              <Button
                color="error"
                variant="outlined"
                startIcon={<DeleteForeverOutlined />}
                loading={deleting}
                onClick={() => void remove()}
              >
                {t('team:manageDialog.delete')}
              </Button>
            </Stack>
          </Section>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('team:manageDialog.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorStatus } from '@/shared/api/errors';
import { useMyTeams, useSession } from '@/shared/api/session';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useTeamLeaveMutation, type TeamInfoModel } from '../api';
import { CreateTeamDialog } from '../components/CreateTeamDialog';
import { JoinTeamDialog } from '../components/JoinTeamDialog';
import { ManageTeamDialog } from '../components/ManageTeamDialog';
import { SignInPrompt } from '../components/SignInPrompt';
import { TeamCard } from '../components/TeamCard';

/** Other members' changes (joins, a new captain, a lock) show up within this, as on GZCTF (reference §7.3). */
export const TEAMS_REFRESH_MS = 120_000;

type OpenDialog = { kind: 'create' } | { kind: 'join' } | { kind: 'manage'; teamId: number } | null;

const isCaptainOf = (team: TeamInfoModel, userId: string | null) =>
  userId !== null && (team.members ?? []).some((member) => member.captain && member.id === userId);

/** My teams (spec §2 "Teams"): create one, join one with an invite code, manage or leave. */
export default function TeamsPage() {
  const { t } = useTranslation();
  const viewer = useSession();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const { teams, isLoading, error } = useMyTeams({ pollingInterval: TEAMS_REFRESH_MS });
  const [leave] = useTeamLeaveMutation();

  if (viewer.isLoading) return <PageSpinner />;
  const signedOut = !viewer.signedIn || getErrorStatus(error) === 401;

  async function leaveTeam(team: TeamInfoModel) {
    const confirmed = await confirm({
      title: t('team:leaveConfirm.title'),
      message: t('team:leaveConfirm.message', { name: team.name }),
      confirmLabel: t('team:leave'),
      destructive: true,
    });
    if (confirmed) await leave({ id: team.id }).catch(() => undefined);
  }

  const managed = dialog?.kind === 'manage' ? teams.find((team) => team.id === dialog.teamId) : undefined;
  const actions = (
    <Stack direction="row" spacing={1.5}>
      <Button variant="outlined" startIcon={<LoginOutlined />} onClick={() => setDialog({ kind: 'join' })}>
        {t('team:join.open')}
      </Button>
      <Button variant="contained" startIcon={<GroupAddOutlined />} onClick={() => setDialog({ kind: 'create' })}>
        {t('team:create.open')}
      </Button>
    </Stack>
  );

  let body;
  if (signedOut) body = <SignInPrompt />;
  else if (isLoading) body = <PageSpinner />;
  else if (teams.length === 0)
    body = (
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <GroupsOutlined sx={{ fontSize: 56, color: 'text.secondary', mb: 1 }} />
        <Typography variant="h6" component="h2" gutterBottom>
          {t('team:empty.title')}
        </Typography>
        <Typography color="text.secondary">{t('team:empty.message')}</Typography>
      </Paper>
    );
  else
    body = (
      <Grid container spacing={2.5}>
        {teams.map((team) => (
          <Grid key={team.id} size={{ xs: 12, sm: 6, lg: 4 }}>
            <TeamCard
              team={team}
              isCaptain={isCaptainOf(team, viewer.userId)}
              onManage={() => setDialog({ kind: 'manage', teamId: team.id })}
              onLeave={() => void leaveTeam(team)}
            />
          </Grid>
        ))}
      </Grid>
    );

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-end' } }}
      >
        <div>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            {t('team:title')}
          </Typography>
          <Typography color="text.secondary">{t('team:subtitle')}</Typography>
        </div>
        {!signedOut && actions}
      </Stack>
      {body}
      {dialog?.kind === 'create' && <CreateTeamDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === 'join' && <JoinTeamDialog onClose={() => setDialog(null)} />}
      {managed && isCaptainOf(managed, viewer.userId) && (
        <ManageTeamDialog team={managed} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}

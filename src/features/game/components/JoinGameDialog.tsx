import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getErrorMessage } from '@/shared/api/errors';
import { useGameJoinGameMutation, type DetailedGameInfoModel } from '../api';
import { useMyTeams } from '@/shared/api/session';

/**
 * Joins a game with one of the user's teams (reference §5.3): a division when the game has them, the
 * invite code when it needs one. The server's refusal (wrong code, full team, already in another
 * team…) shows in the dialog.
 */
export function JoinGameDialog({ game, onClose }: { game: DetailedGameInfoModel; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { teams, isLoading: teamsLoading } = useMyTeams();
  const divisions = game.divisions ?? [];
  const [picked, setTeamId] = useState<number | ''>('');
  // A single team is the obvious choice, also when the teams arrive after the dialog opened.
  const teamId = picked === '' && teams.length === 1 ? teams[0]!.id : picked;
  const [division, setDivision] = useState(divisions.length === 1 ? divisions[0]! : '');
  const [inviteCode, setInviteCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [join, { isLoading, error, reset }] = useGameJoinGameMutation();

  const missingTeam = teamId === '';
  const missingDivision = divisions.length > 0 && !division;
  const missingCode = game.inviteCodeRequired && !inviteCode.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (missingTeam || missingDivision || missingCode) return;
    try {
      await join({
        id: game.id,
        gameJoinModel: {
          teamId,
          division: divisions.length > 0 ? division : null,
          inviteCode: game.inviteCodeRequired ? inviteCode.trim() : null,
        },
      }).unwrap();
      onClose();
    } catch {
      // Shown below from the mutation's error.
    }
  }

  const noTeams = !teamsLoading && teams.length === 0;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('game:join.title', { title: game.title })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5}>
            <DialogContentText>{t('game:join.description')}</DialogContentText>
            {noTeams ? (
              <Alert severity="info">
                {t('game:join.noTeams')}{' '}
                <Link component={RouterLink} to="/teams">
                  {t('game:join.toTeams')}
                </Link>
              </Alert>
            ) : (
              <TextField
                autoFocus
                select
                label={t('game:join.team')}
                value={teamId}
                onChange={(event) => {
                  setTeamId(Number(event.target.value));
                  reset();
                }}
                required
                fullWidth
                disabled={teamsLoading}
                error={submitted && missingTeam}
                helperText={submitted && missingTeam ? t('game:join.teamRequired') : undefined}
              >
                {teams.map((team) => (
                  <MenuItem key={team.id} value={team.id}>
                    {team.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {divisions.length > 0 && (
              <TextField
                select
                label={t('game:join.division')}
                value={division}
                onChange={(event) => {
                  setDivision(event.target.value);
                  reset();
                }}
                required
                fullWidth
                error={submitted && missingDivision}
                helperText={submitted && missingDivision ? t('game:join.divisionRequired') : undefined}
              >
                {divisions.map((name) => (
                  <MenuItem key={name} value={name}>
                    {name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {game.inviteCodeRequired && (
              <TextField
                label={t('game:join.inviteCode')}
                value={inviteCode}
                onChange={(event) => {
                  setInviteCode(event.target.value);
                  reset();
                }}
                required
                fullWidth
                error={submitted && missingCode}
                helperText={
                  submitted && missingCode ? t('game:join.inviteCodeRequired') : t('game:join.inviteCodeHint')
                }
                slotProps={{ htmlInput: { maxLength: 32, spellCheck: false } }}
              />
            )}
            {error && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:dialog.cancel')}</Button>
          <Button type="submit" variant="contained" loading={isLoading} disabled={noTeams}>
            {t('game:join.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

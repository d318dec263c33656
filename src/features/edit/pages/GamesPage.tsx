import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { useEditDeleteGameMutation, useEditGetGamesQuery, type GameInfoModel } from '../api';
import { CreateGameDialog } from '../components/CreateGameDialog';
import { ServerGrid } from '@/shared/ui/grid/ServerGrid';
import { useServerGrid } from '@/shared/ui/grid/useServerGrid';
import { gameRowId, useGameColumns } from '../components/games.columns';

/** The columns the server sorts games by (the contract's `sort` enum of editGetGames). */
const SORTABLE = ['id', 'title', 'start', 'end'] as const;

/**
 * Every game, newest first unless sorted otherwise, paged and sorted by the server: poster, title, hidden and practice flags, times, and
 * a way into each of the game's sections. Create a game, or delete one (with all it owns) after
 * confirming.
 */
export default function GamesPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [creating, setCreating] = useState(false);
  const grid = useServerGrid({ sortable: SORTABLE });
  const list = useEditGetGamesQuery(grid.query, { refetchOnMountOrArgChange: true });
  const [deleteGame] = useEditDeleteGameMutation();

  const remove = useCallback(
    async (game: GameInfoModel) => {
      if (game.id === undefined) return;
      const confirmed = await confirm({
        title: t('edit:games.deleteConfirm.title'),
        message: t('edit:games.deleteConfirm.message', { title: game.title }),
        confirmLabel: t('edit:action.delete'),
        destructive: true,
      });
      if (!confirmed) return;
      // A failure is announced by the notification listener.
      await deleteGame({ id: game.id }).catch(() => undefined);
    },
    [confirm, deleteGame, t],
  );
  const onRemove = useCallback((game: GameInfoModel) => void remove(game), [remove]);
  const columns = useGameColumns(onRemove);

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h2">
          {t('edit:games.title')}
        </Typography>
        <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
          {t('edit:games.create.open')}
        </Button>
      </Stack>
      <ServerGrid
        grid={grid}
        label={t('edit:games.title')}
        rows={list.currentData?.data}
        total={list.data?.total ?? list.data?.length}
        loading={list.isFetching}
        columns={columns}
        getRowId={gameRowId}
        rowHeight={64}
      />
      {creating && <CreateGameDialog onClose={() => setCreating(false)} />}
    </Stack>
  );
}

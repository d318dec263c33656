import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridPaginationModel } from '@mui/x-data-grid';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { useEditDeleteGameMutation, useEditGetGamesQuery, type GameInfoModel } from '../api';
import { CreateGameDialog } from '../components/CreateGameDialog';
import { DataTable, PAGE_SIZE_OPTIONS } from '@/shared/ui/grid/DataTable';
import { gameRowId, useGameColumns } from '../components/games.columns';

const NO_GAMES: GameInfoModel[] = [];

/**
 * Every game, newest first, paged by the server: poster, title, hidden and practice flags, times, and
 * a way into each of the game's sections. Create a game, or delete one (with all it owns) after
 * confirming.
 */
export default function GamesPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [page, setPage] = useState<GridPaginationModel>({ page: 0, pageSize: PAGE_SIZE_OPTIONS[0]! });
  const [creating, setCreating] = useState(false);
  const list = useEditGetGamesQuery(
    { count: page.pageSize, skip: page.page * page.pageSize },
    { refetchOnMountOrArgChange: true },
  );
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
      <DataTable
        aria-label={t('edit:games.title')}
        rows={list.data?.data ?? NO_GAMES}
        columns={columns}
        getRowId={gameRowId}
        loading={list.isFetching}
        rowHeight={64}
        paginationMode="server"
        rowCount={list.data?.total ?? list.data?.length ?? 0}
        paginationModel={page}
        onPaginationModelChange={setPage}
      />
      {creating && <CreateGameDialog onClose={() => setCreating(false)} />}
    </Stack>
  );
}

import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import HowToRegOutlined from '@mui/icons-material/HowToRegOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { GameInfoModel } from '../api';
import { formatDateTime } from '@/shared/lib/dateTime';
import { actionsColumn } from '@/shared/ui/grid/actionsColumn';

export const gameRowId = (game: GameInfoModel) => game.id ?? game.title;

const SECTIONS = [
  { path: 'info', icon: EditOutlined },
  { path: 'notices', icon: CampaignOutlined },
  { path: 'review', icon: HowToRegOutlined },
  { path: 'writeups', icon: DescriptionOutlined },
  { path: 'challenges', icon: ExtensionOutlined },
] as const;

/** The games table's columns; `remove` must be stable. */
export function useGameColumns(remove: (game: GameInfoModel) => void): GridColDef<GameInfoModel>[] {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const language = i18n.language;
  return useMemo<GridColDef<GameInfoModel>[]>(
    () => [
      {
        field: 'poster',
        headerName: t('edit:games.column.poster'),
        width: 110,
        renderCell: ({ row }) => (
          <Avatar
            variant="rounded"
            src={row.poster ?? undefined}
            alt={t('edit:games.posterOf', { title: row.title })}
            sx={{ width: 80, height: 45, bgcolor: 'action.hover', color: 'text.secondary' }}
          >
            <ImageOutlined />
          </Avatar>
        ),
      },
      {
        field: 'title',
        headerName: t('edit:games.column.title'),
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => (
          <Link component={RouterLink} to={`/admin/games/${row.id}/info`} sx={{ fontWeight: 600 }} noWrap>
            {row.title}
          </Link>
        ),
      },
      {
        field: 'flags',
        headerName: t('edit:games.column.flags'),
        width: 180,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={0.5}>
            {row.hidden && <Chip size="small" label={t('edit:games.hidden')} />}
            {row.practiceMode && <Chip size="small" color="info" variant="outlined" label={t('edit:games.practice')} />}
          </Stack>
        ),
      },
      {
        field: 'start',
        headerName: t('edit:games.column.start'),
        width: 190,
        valueFormatter: (value: number) => formatDateTime(value, language),
      },
      {
        field: 'end',
        headerName: t('edit:games.column.end'),
        width: 190,
        valueFormatter: (value: number) => formatDateTime(value, language),
      },
      actionsColumn<GameInfoModel>(t('edit:games.column.actions'), [
        ...SECTIONS.map(({ path, icon: Icon }) => ({
          key: path,
          icon: <Icon />,
          label: (row: GameInfoModel) => t(`edit:games.open.${path}`, { title: row.title }),
          title: t(`edit:frame.section.${path}`),
          onClick: (row: GameInfoModel) => void navigate(`/admin/games/${row.id}/${path}`),
        })),
        {
          key: 'delete',
          icon: <DeleteOutline color="error" />,
          label: (row) => t('edit:games.delete', { title: row.title }),
          title: t('edit:action.delete'),
          onClick: remove,
        },
      ]),
    ],
    [t, language, navigate, remove],
  );
}

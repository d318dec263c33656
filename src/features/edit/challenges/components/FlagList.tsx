import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/shared/lib/fileSize';
import { useConfirm } from '@/shared/ui/ConfirmProvider';
import { useEditRemoveFlagMutation, type FlagInfoModel } from '../../api';

/** The stored flags, each with its attachment when it has one, and a delete button that asks first. */
export function FlagList({
  gameId,
  challengeId,
  flags,
}: {
  gameId: number;
  challengeId: number;
  flags: FlagInfoModel[];
}) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [remove, { isLoading, originalArgs }] = useEditRemoveFlagMutation();

  async function removeFlag(flag: FlagInfoModel) {
    const confirmed = await confirm({
      title: t('challengeEdit:flags.deleteTitle'),
      message: t(flags.length === 1 ? 'challengeEdit:flags.deleteLast' : 'challengeEdit:flags.deleteMessage', {
        flag: flag.flag,
      }),
      confirmLabel: t('challengeEdit:flags.delete'),
      destructive: true,
    });
    if (confirmed) void remove({ id: gameId, cId: challengeId, fId: flag.id });
  }

  if (flags.length === 0) {
    return <Typography color="text.secondary">{t('challengeEdit:flags.none')}</Typography>;
  }
  return (
    <List dense aria-label={t('challengeEdit:flags.listLabel')} disablePadding>
      {flags.map((flag) => {
        const attachment = flag.attachment;
        return (
          <ListItem
            key={flag.id}
            divider
            data-testid="flag-row"
            secondaryAction={
              <IconButton
                edge="end"
                color="error"
                disabled={isLoading && originalArgs?.fId === flag.id}
                aria-label={t('challengeEdit:flags.deleteOf', { flag: flag.flag })}
                onClick={() => void removeFlag(flag)}
              >
                <DeleteOutlined />
              </IconButton>
            }
          >
            <ListItemText
              primary={flag.flag}
              slotProps={{ primary: { sx: { fontFamily: 'ui-monospace, monospace', overflowWrap: 'anywhere' } } }}
              secondary={
                attachment && attachment.type !== 'None' ? (
                  <>
                    <Link href={attachment.url ?? undefined} target="_blank" rel="noopener noreferrer">
                      {attachment.type === 'Local'
                        ? t('challengeEdit:flags.localFile', { size: formatFileSize(attachment.fileSize ?? 0) })
                        : attachment.url}
                    </Link>
                  </>
                ) : null
              }
            />
          </ListItem>
        );
      })}
    </List>
  );
}

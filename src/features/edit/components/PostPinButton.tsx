import PushPin from '@mui/icons-material/PushPin';
import PushPinOutlined from '@mui/icons-material/PushPinOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useEditSetPostPinMutation } from '../api';

/**
 * An admin's pin/unpin toggle for one post (lists and the home page). `post` is a row of an unpolled
 * list, so the click asks for the state it offers ("pin" pins) rather than flipping whatever is
 * stored; `editSetPostPin` reads the post fresh and writes the whole of it. Off while one is running.
 */
export function PostPinButton({ post }: { post: { id: string; title: string; isPinned: boolean } }) {
  const { t } = useTranslation();
  const [setPin, { isLoading }] = useEditSetPostPinMutation();
  const label = t(post.isPinned ? 'posts:admin.unpin' : 'posts:admin.pin', { title: post.title });
  return (
    <Tooltip title={t(post.isPinned ? 'posts:admin.unpinShort' : 'posts:admin.pinShort')}>
      <span>
        <IconButton
          aria-label={label}
          aria-pressed={post.isPinned}
          color={post.isPinned ? 'primary' : 'default'}
          disabled={isLoading}
          onClick={() => void setPin({ id: post.id, isPinned: !post.isPinned })}
          size="small"
          sx={{ bgcolor: 'background.paper', '&:hover': { bgcolor: 'action.hover' } }}
        >
          {isLoading ? (
            <CircularProgress size={18} aria-hidden />
          ) : post.isPinned ? (
            <PushPin fontSize="small" />
          ) : (
            <PushPinOutlined fontSize="small" />
          )}
        </IconButton>
      </span>
    </Tooltip>
  );
}

import EditOutlined from '@mui/icons-material/EditOutlined';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** Opens the editor for an existing post. */
export function EditPostButton({ postId }: { postId: string }) {
  const { t } = useTranslation();
  return (
    <Button
      component={RouterLink}
      to={`/posts/${postId}/edit`}
      variant="outlined"
      startIcon={<EditOutlined />}
      sx={{ flexShrink: 0 }}
    >
      {t('posts:admin.edit')}
    </Button>
  );
}

import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** Opens the editor for a new post (`/posts/new/edit`). */
export function NewPostButton() {
  const { t } = useTranslation();
  return (
    <Button component={RouterLink} to="/posts/new/edit" variant="contained" startIcon={<AddOutlined />}>
      {t('posts:admin.new')}
    </Button>
  );
}

import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { PostBadge } from './PostBadge';

/** A post's tags as small chips (none when it has none). */
export function PostTags({ tags }: { tags: readonly string[] | null | undefined }) {
  const { t } = useTranslation();
  if (!tags?.length) return null;
  return (
    <Stack
      component="ul"
      direction="row"
      aria-label={t('posts:tags')}
      sx={{ flexWrap: 'wrap', gap: 0.75, listStyle: 'none', p: 0, m: 0 }}
    >
      {tags.map((tag) => (
        <li key={tag}>
          <PostBadge>{tag}</PostBadge>
        </li>
      ))}
    </Stack>
  );
}

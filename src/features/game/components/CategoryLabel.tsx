import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { categoryLook } from '@/shared/lib/challengeCategory';

/** A category's icon (in its colour) and translated name. */
export function CategoryLabel({ category }: { category: string }) {
  const { t } = useTranslation();
  const { icon: Icon, color } = categoryLook(category);
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Icon fontSize="small" sx={{ color }} aria-hidden />
      <Typography variant="body2" component="span" noWrap>
        {t(`common:category.${category}`, { defaultValue: category })}
      </Typography>
    </Stack>
  );
}

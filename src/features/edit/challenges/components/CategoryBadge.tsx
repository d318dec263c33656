import Avatar from '@mui/material/Avatar';
import { alpha } from '@mui/material/styles';
import { categoryLook } from '@/shared/lib/challengeCategory';

/** A category's icon in its colour on a tinted disc; decorative, the category is named next to it. */
export function CategoryBadge({ category, size = 36 }: { category: string; size?: number }) {
  const { icon: Icon, color } = categoryLook(category);
  return (
    <Avatar aria-hidden sx={{ width: size, height: size, bgcolor: alpha(color, 0.14), color }}>
      <Icon fontSize={size > 30 ? 'medium' : 'small'} />
    </Avatar>
  );
}

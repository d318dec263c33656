import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The team member limit: 0 is none, 1 is a solo game (reference §3.6). */
export function MemberLimit({ limit }: { limit: number }) {
  const { t } = useTranslation();
  const Icon = limit === 1 ? PersonOutline : GroupsOutlined;
  const text =
    limit === 1
      ? t('game:limit.individual')
      : limit > 1
        ? t('game:limit.upTo', { count: limit })
        : t('game:limit.unlimited');
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: 'text.secondary' }}>
      <Icon fontSize="small" aria-hidden />
      <Typography variant="body2">{text}</Typography>
    </Stack>
  );
}

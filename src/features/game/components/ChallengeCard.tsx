import CheckCircle from '@mui/icons-material/CheckCircle';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { categoryLook } from '@/shared/lib/challengeCategory';
import type { ChallengeInfo } from '../api';
import { BloodMarks } from './BloodMarks';
import { CategoryLabel } from './CategoryLabel';

/** A challenge on the board: title, category, current score, solves, bloods, and whether we solved it. */
export function ChallengeCard({
  challenge,
  solved,
  onOpen,
}: {
  challenge: ChallengeInfo;
  solved: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const { color } = categoryLook(challenge.category);
  return (
    <Card
      variant="outlined"
      sx={{
        height: '100%',
        borderLeft: 4,
        borderLeftColor: color,
        ...(solved ? { borderColor: 'success.main', bgcolor: 'action.selected' } : {}),
      }}
    >
      {/* Named by what it shows (title, solved mark, category, points, bloods, solves), so the name
          a speech user reads off the card and the one a screen reader hears agree (WCAG 2.5.3). */}
      <CardActionArea onClick={onOpen} sx={{ height: '100%', p: 2, display: 'flex', alignItems: 'stretch' }}>
        <Stack spacing={1} sx={{ width: '100%' }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="subtitle1" component="h3" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
              {challenge.title}
            </Typography>
            {solved && <CheckCircle color="success" fontSize="small" titleAccess={t('game:challenge.solved')} />}
          </Stack>
          <CategoryLabel category={challenge.category} />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
              {t('game:challenge.points', { count: challenge.score })}
            </Typography>
            <BloodMarks bloods={challenge.bloods} />
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('game:challenge.solves', { count: challenge.solved })}
          </Typography>
        </Stack>
      </CardActionArea>
    </Card>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ChallengeEditDetailModel } from '../../api';
import { CategoryBadge } from '../components/CategoryBadge';
import { ChallengePageFrame } from '../components/ChallengePageFrame';
import { DynamicFlagsForm } from '../components/DynamicFlagsForm';
import { EnableSwitch } from '../components/EnableSwitch';
import { FlagList } from '../components/FlagList';
import { StaticFlagsForm } from '../components/StaticFlagsForm';
import { challengePath, useChallengeRoute } from '../lib/useChallengeRoute';

/** What the flags of each type are: a list with a form to add more, or the template explained. */
function FlagsOf({ gameId, challenge }: { gameId: number; challenge: ChallengeEditDetailModel }) {
  const { t } = useTranslation();
  if (challenge.type === 'DynamicContainer') {
    return (
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Stack spacing={2}>
          <Alert severity="info">{t('challengeEdit:flags.fromTemplate')}</Alert>
          <Typography variant="subtitle2">{t('challengeEdit:container.flagTemplate')}</Typography>
          <Typography sx={{ fontFamily: 'ui-monospace, monospace', overflowWrap: 'anywhere' }}>
            {challenge.flagTemplate || t('challengeEdit:flags.defaultTemplate')}
          </Typography>
          <Button component={RouterLink} to={challengePath(gameId, challenge.id)} sx={{ alignSelf: 'flex-start' }}>
            {t('challengeEdit:flags.editTemplate')}
          </Button>
        </Stack>
      </Paper>
    );
  }
  const dynamic = challenge.type === 'DynamicAttachment';
  return (
    <Grid container spacing={2.5}>
      <Grid size={{ xs: 12, lg: dynamic ? 6 : 7 }}>
        <Paper variant="outlined" component="section" sx={{ p: { xs: 2, md: 3 } }}>
          <Typography variant="h6" component="h3" sx={{ mb: 1, fontWeight: 600 }}>
            {t('challengeEdit:flags.stored', { number: challenge.flags.length })}
          </Typography>
          {dynamic ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('challengeEdit:flags.dynamicHelp')}
            </Typography>
          ) : null}
          <FlagList gameId={gameId} challengeId={challenge.id} flags={challenge.flags} />
        </Paper>
      </Grid>
      <Grid size={{ xs: 12, lg: dynamic ? 6 : 5 }}>
        <Paper variant="outlined" component="section" sx={{ p: { xs: 2, md: 3 } }}>
          <Typography variant="h6" component="h3" sx={{ mb: 2, fontWeight: 600 }}>
            {t('challengeEdit:flags.addTitle')}
          </Typography>
          {dynamic ? (
            <DynamicFlagsForm gameId={gameId} challengeId={challenge.id} />
          ) : (
            <StaticFlagsForm gameId={gameId} challengeId={challenge.id} />
          )}
        </Paper>
      </Grid>
    </Grid>
  );
}

/** `/admin/games/:id/challenges/:chalId/flags`: the answers a challenge accepts. */
export default function FlagsPage() {
  const { t } = useTranslation();
  const { gameId, challengeId } = useChallengeRoute();
  return (
    <ChallengePageFrame
      back={{ to: challengePath(gameId, challengeId), label: t('challengeEdit:flags.back') }}
      spacing={2.5}
    >
      {(data) => (
        <>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
          >
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
              <CategoryBadge category={data.category} size={44} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="h5" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                  {t('challengeEdit:flags.heading', { title: data.title })}
                </Typography>
                <Chip size="small" variant="outlined" label={t(`challengeEdit:type.${data.type}.name`)} />
              </Box>
            </Stack>
            <EnableSwitch
              gameId={gameId}
              challengeId={data.id}
              title={data.title}
              isEnabled={data.isEnabled}
              showLabel
            />
          </Stack>
          <FlagsOf gameId={gameId} challenge={data} />
        </>
      )}
    </ChallengePageFrame>
  );
}

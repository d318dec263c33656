import AttachFileOutlined from '@mui/icons-material/AttachFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import { getErrorMessage } from '@/shared/api/errors';
import { formatFileSize } from '@/shared/lib/fileSize';
import Markdown from '@/shared/ui/Markdown';
import { PageSpinner } from '@/shared/ui/PageSpinner';
import { useGameGetChallengeQuery, type ChallengeInfo } from '../api';
import { useGamePreviewChallengeQuery } from '../previewApi';
import { CategoryLabel } from './CategoryLabel';
import { FlagForm } from './FlagForm';
import { InstancePanel, isContainerChallenge } from './InstancePanel';

/**
 * One challenge, opened from its card: the statement (markdown), hints, the attachment with its
 * size, the team's instance for container challenges, and the flag input. In an admin's `preview`
 * the editor's copy is shown, read-only: no instance and no flag input.
 */
export function ChallengeDialog({
  gameId,
  challenge,
  solved,
  onClose,
  preview = false,
}: {
  gameId: number;
  challenge: ChallengeInfo;
  solved: boolean;
  onClose: () => void;
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const args = { id: gameId, challengeId: challenge.id };
  // Live (spec §7): the server's cron stops expired instances, and organisers edit hints and
  // statements, so the detail is polled and read afresh on opening rather than served from the cache.
  const played = useGameGetChallengeQuery(args, {
    skip: preview,
    pollingInterval: REFRESH_INTERVAL_MS,
    refetchOnMountOrArgChange: true,
  });
  const previewed = useGamePreviewChallengeQuery(args, { skip: !preview });
  const { error, isLoading } = preview ? previewed : played;
  const data = preview
    ? previewed.data && {
        ...previewed.data,
        score: challenge.score,
        context: { url: previewed.data.attachment?.url, fileSize: previewed.data.attachment?.fileSize },
      }
    : played.data;
  const hints = data?.hints?.filter((hint) => hint.trim()) ?? [];
  const url = data?.context.url;
  // An empty statement shows nothing, and a divider only separates parts that are there.
  const hasStatement = Boolean(data?.content.trim());
  const hasBody = hasStatement || hints.length > 0 || Boolean(url);
  const container = data !== undefined && !preview && isContainerChallenge(data.type);

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId} sx={{ pb: 1 }}>
        {challenge.title}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <CategoryLabel category={challenge.category} />
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('game:challenge.points', { count: data?.score ?? challenge.score })}
            </Typography>
            {solved && (
              <Typography variant="body2" color="success.main" sx={{ fontWeight: 600 }}>
                {t('game:challenge.solved')}
              </Typography>
            )}
          </Stack>
          {isLoading && <PageSpinner />}
          {error && !data && <Alert severity="error">{getErrorMessage(t, error)}</Alert>}
          {data && (
            <>
              {hasStatement && <Markdown source={data.content} data-testid="challenge-statement" />}
              {hints.length > 0 && (
                <Stack spacing={1}>
                  <Typography variant="subtitle2" component="h3">
                    {t('game:challenge.hints')}
                  </Typography>
                  {hints.map((hint, index) => (
                    <Alert key={index} severity="info" icon={false}>
                      {hint}
                    </Alert>
                  ))}
                </Stack>
              )}
              {url && (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <AttachFileOutlined fontSize="small" aria-hidden />
                  <Link href={url} target="_blank" rel="noopener noreferrer" download>
                    {t('game:challenge.attachment')}
                  </Link>
                  {typeof data.context.fileSize === 'number' && (
                    <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                      ({formatFileSize(data.context.fileSize)})
                    </Typography>
                  )}
                </Stack>
              )}
              {container && played.data && (
                <>
                  {hasBody && <Divider />}
                  <InstancePanel gameId={gameId} challenge={played.data} />
                </>
              )}
              {(hasBody || container) && <Divider />}
              {preview ? (
                <Alert severity="info">{t('game:preview.noSubmission')}</Alert>
              ) : (
                // The flag is what a player opens a challenge for: start there (it is the first field).
                <FlagForm gameId={gameId} challengeId={challenge.id} solved={solved} autoFocus />
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('game:close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

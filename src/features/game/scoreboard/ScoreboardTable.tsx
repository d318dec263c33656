import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CATEGORY_LOOK, type ChallengeCategoryName } from '@/shared/lib/challengeCategory';
import type { ChallengeInfo, ScoreboardItem } from '../api';
import { BloodMark } from './BloodMark';
import { PAGE_SIZES, shownRank, solvesById, type CategoryGroup } from './board';
import { formatDateTime } from '@/shared/lib/dateTime';
import { WRAPPING_PAGER_SX } from '@/shared/ui/paging/wrappingPager';

interface Props {
  rows: ScoreboardItem[];
  groups: CategoryGroup[];
  division: string | null;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  onOpenTeam: (team: ScoreboardItem) => void;
}

const STICKY = { position: 'sticky', bgcolor: 'background.paper', zIndex: 2 } as const;
/**
 * Rank and team stay put while the challenges scroll; on a phone both are narrow enough that score
 * and solved count still fit beside them on the first screen.
 */
const RANK = { ...STICKY, left: 0, width: { xs: 44, sm: 56 }, minWidth: { xs: 44, sm: 56 }, px: { xs: 1, sm: 2 } };
const TEAM = { ...STICKY, left: { xs: 44, sm: 56 }, minWidth: { xs: 0, sm: 180 }, px: { xs: 1, sm: 2 } };

function ChallengeHeader({ challenge }: { challenge: ChallengeInfo }) {
  const { t, i18n } = useTranslation('scoreboard');
  const bloods = challenge.bloods.map((blood, index) => (
    <div key={blood.id}>
      {t(`blood.${index}`)}: {blood.name} ({formatDateTime(blood.submitTimeUtc, i18n.language, 'seconds')})
    </div>
  ));
  return (
    <Tooltip
      title={
        <Box>
          <div>
            <strong>{challenge.title}</strong>
          </div>
          <div>{t('challengeTip', { score: challenge.score, solved: challenge.solved })}</div>
          {bloods}
        </Box>
      }
    >
      <Typography
        variant="caption"
        tabIndex={0}
        sx={{
          display: 'block',
          writingMode: 'vertical-rl',
          transform: 'rotate(180deg)',
          maxHeight: 120,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          mx: 'auto',
        }}
      >
        {challenge.title}
      </Typography>
    </Tooltip>
  );
}

/**
 * The standings: rank, team, score, solved count, then one narrow cell per challenge under its
 * category, marked when solved (reference §7.4). The team name opens the team's detail.
 */
export function ScoreboardTable({
  rows,
  groups,
  division,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
  onOpenTeam,
}: Props) {
  const { t, i18n } = useTranslation('scoreboard');
  const challenges = groups.flatMap((group) => group.challenges);
  const pageRows = rows.slice(page * pageSize, (page + 1) * pageSize);

  return (
    <Paper variant="outlined">
      {/* Focusable, so a keyboard can scroll the challenge columns into view. */}
      <TableContainer tabIndex={0} role="region" aria-label={t('table.label')}>
        <Table size="small" aria-label={t('table.label')} sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell rowSpan={2} sx={RANK}>
                {t('table.rank')}
              </TableCell>
              <TableCell rowSpan={2} sx={TEAM}>
                {t('table.team')}
              </TableCell>
              <TableCell rowSpan={2} align="right">
                {t('table.score')}
              </TableCell>
              <TableCell rowSpan={2} align="right">
                {t('table.solved')}
              </TableCell>
              {groups.map((group) => (
                <TableCell
                  key={group.category}
                  colSpan={group.challenges.length}
                  align="center"
                  // The category's colour underlines its name: as text it is too faint (WCAG 1.4.3).
                  sx={{
                    fontWeight: 700,
                    borderBottom: 2,
                    borderBottomColor: CATEGORY_LOOK[group.category as ChallengeCategoryName]?.color,
                  }}
                >
                  {t(`common:category.${group.category}`, { defaultValue: group.category })}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              {challenges.map((challenge) => (
                <TableCell key={challenge.id} align="center" sx={{ px: 0.5, verticalAlign: 'bottom' }}>
                  <ChallengeHeader challenge={challenge} />
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {pageRows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4 + challenges.length}>
                  <Typography color="text.secondary" sx={{ py: 2 }}>
                    {t('table.empty')}
                  </Typography>
                </TableCell>
              </TableRow>
            ) : (
              pageRows.map((item) => {
                const solves = solvesById(item);
                return (
                  <TableRow key={item.id} hover>
                    <TableCell sx={{ ...RANK, zIndex: 1, fontWeight: 700 }}>{shownRank(item, division)}</TableCell>
                    <TableCell sx={{ ...TEAM, zIndex: 1 }}>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <Avatar
                          src={item.avatar ?? undefined}
                          alt=""
                          sx={{ width: 28, height: 28, fontSize: 14, display: { xs: 'none', sm: 'flex' } }}
                        >
                          {item.name.slice(0, 1).toUpperCase()}
                        </Avatar>
                        <Link
                          component="button"
                          type="button"
                          underline="hover"
                          onClick={() => onOpenTeam(item)}
                          aria-label={t('table.openTeam', { team: item.name })}
                          sx={{
                            fontWeight: 600,
                            maxWidth: { xs: 120, sm: 220 },
                            overflow: 'hidden',
                            textOverflow: 'ellipsis',
                          }}
                        >
                          {item.name}
                        </Link>
                        {item.division && division === null ? (
                          <Chip size="small" variant="outlined" label={item.division} />
                        ) : null}
                      </Stack>
                    </TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>
                      {item.score}
                    </TableCell>
                    <TableCell align="right">{item.solvedCount}</TableCell>
                    {challenges.map((challenge) => {
                      const solve = solves.get(challenge.id);
                      return (
                        <TableCell key={challenge.id} align="center" sx={{ px: 0.5 }}>
                          {solve ? (
                            <BloodMark
                              type={solve.type}
                              label={t(`mark.${solve.type}`, { team: item.name, challenge: challenge.title })}
                              tooltip={
                                <Box>
                                  <div>
                                    <strong>{challenge.title}</strong> · {t(`type.${solve.type}`)}
                                  </div>
                                  <div>{t('solveTip', { score: solve.score, user: solve.userName ?? '—' })}</div>
                                  <div>{formatDateTime(solve.time, i18n.language, 'seconds')}</div>
                                </Box>
                              }
                            />
                          ) : null}
                        </TableCell>
                      );
                    })}
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={rows.length}
        page={page}
        rowsPerPage={pageSize}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_event, next) => onPageChange(next)}
        onRowsPerPageChange={(event) => onPageSizeChange(Number(event.target.value))}
        labelRowsPerPage={t('table.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) => t('table.displayedRows', { from, to, count })}
        getItemAriaLabel={(type) => t(`table.${type}Page`)}
        sx={WRAPPING_PAGER_SX}
      />
    </Paper>
  );
}

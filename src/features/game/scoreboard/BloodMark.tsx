import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import WaterDropIcon from '@mui/icons-material/WaterDrop';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';
import type { SubmissionType } from '../api';

/** Gold, silver and bronze: the three bloods read at a glance, whatever the theme. */
export const BLOOD_COLORS: Record<'FirstBlood' | 'SecondBlood' | 'ThirdBlood', string> = {
  FirstBlood: '#f5b300',
  SecondBlood: '#a3aab5',
  ThirdBlood: '#c0743c',
};

const isBlood = (type: SubmissionType): type is keyof typeof BLOOD_COLORS => type in BLOOD_COLORS;

/**
 * A solve's mark: a coloured drop for the first three solvers, a tick for the others. `label` names
 * it for screen readers; `tooltip` (time, score, solver) shows on hover.
 */
export function BloodMark({ type, label, tooltip }: { type: SubmissionType; label: string; tooltip?: ReactNode }) {
  const icon = isBlood(type) ? (
    <WaterDropIcon fontSize="small" sx={{ color: BLOOD_COLORS[type] }} />
  ) : (
    <CheckCircleIcon fontSize="small" color="success" />
  );
  const mark = (
    <Box component="span" role="img" aria-label={label} sx={{ display: 'inline-flex', verticalAlign: 'middle' }}>
      {icon}
    </Box>
  );
  return tooltip ? (
    <Tooltip title={tooltip} describeChild>
      {mark}
    </Tooltip>
  ) : (
    mark
  );
}

import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { GamePhase } from '../lib/time';

const COLOR = { upcoming: 'info', running: 'success', ended: 'default' } as const;

/** "Upcoming", "Running" or "Ended". */
export function GamePhaseChip({ phase, size = 'small' }: { phase: GamePhase; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  return <Chip size={size} color={COLOR[phase]} label={t(`game:phase.${phase}`)} />;
}

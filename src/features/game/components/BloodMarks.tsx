import WaterDrop from '@mui/icons-material/WaterDrop';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import type { Blood } from '../api';

/** Gold, silver and bronze for the first, second and third solver. */
export const BLOOD_COLORS = ['#f5b82e', '#b8c2cc', '#cd7f32'] as const;
const BLOOD_KEYS = ['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const;

/** The first three solvers of a challenge as coloured drops, each naming its team. */
export function BloodMarks({ bloods }: { bloods: Blood[] }) {
  const { t } = useTranslation();
  if (bloods.length === 0) return null;
  return (
    <Stack direction="row" spacing={0.25} component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {bloods.slice(0, 3).map((blood, index) => {
        const label = t(`game:blood.${BLOOD_KEYS[index]!}`, { team: blood.name });
        return (
          <Tooltip key={blood.id} title={label}>
            <Stack component="li" aria-label={label} sx={{ display: 'flex' }}>
              <WaterDrop fontSize="small" sx={{ color: BLOOD_COLORS[index] }} aria-hidden />
            </Stack>
          </Tooltip>
        );
      })}
    </Stack>
  );
}

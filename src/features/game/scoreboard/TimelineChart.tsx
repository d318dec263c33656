import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TopTimeLine } from '../api';
import { chartData } from './board';
import { formatDateTime } from '@/shared/lib/dateTime';

/**
 * The top-10 score curves over time (reference §7.4). Its own module so that @mui/x-charts loads
 * only with the scoreboard (the page imports it lazily).
 */
interface Props {
  timelines: TopTimeLine[];
  /** The board's generation time: where the lines end. */
  until: number;
  /** The game's start, when known: where the lines begin at 0. */
  from?: number;
}

export default function TimelineChart({ timelines, until, from }: Props) {
  const { t, i18n } = useTranslation('scoreboard');
  const { times, series } = useMemo(() => chartData(timelines, until, from), [timelines, until, from]);
  const dates = useMemo(() => times.map((time) => new Date(time)), [times]);
  const language = i18n.language;
  return (
    <LineChart
      height={320}
      aria-label={t('chart.label')}
      xAxis={[
        {
          data: dates,
          scaleType: 'time',
          // The lines span the game's start to the board's time: a rounded-out domain left an empty
          // strip after the last point, as if the scores had stopped there.
          domainLimit: 'strict',
          valueFormatter: (value: Date, context) =>
            context.location === 'tick'
              ? formatDateTime(value.getTime(), language, 'tick')
              : formatDateTime(value.getTime(), language, 'seconds'),
        },
      ]}
      yAxis={[{ min: 0, width: 56 }]}
      series={series.map((line) => ({
        id: line.id,
        label: line.label,
        data: line.data,
        curve: 'stepAfter',
        showMark: false,
      }))}
      // Room for half the last tick's label, which is centred on the right edge.
      margin={{ right: 48 }}
      slotProps={{ legend: { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'center' } } }}
    />
  );
}

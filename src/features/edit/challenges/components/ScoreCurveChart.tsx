import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import { useTranslation } from 'react-i18next';
import { scoreCurve, type ScoreParams } from '../lib/scoreCurve';

/**
 * The score curve of the typed parameters (reference §5.6): what the challenge is worth after each
 * number of solves. Loaded lazily by the edit page, so the chart library stays out of other chunks.
 */
export default function ScoreCurveChart({ params }: { params: ScoreParams }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const { solves, scores } = scoreCurve(params);
  const valid = scores.every(Number.isFinite);
  if (!valid) {
    return (
      <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
        {t('challengeEdit:score.invalid')}
      </Typography>
    );
  }
  return (
    <Box role="img" aria-label={t('challengeEdit:score.chartLabel')} data-testid="score-curve">
      <LineChart
        height={260}
        xAxis={[{ data: solves, label: t('challengeEdit:score.solves'), scaleType: 'linear', min: 1 }]}
        yAxis={[{ min: 0, max: Math.max(params.originalScore, 1), width: 56 }]}
        series={[
          {
            data: scores,
            label: t('challengeEdit:score.score'),
            showMark: false,
            area: true,
            color: theme.palette.primary.main,
            valueFormatter: (value) => (value === null ? '' : String(value)),
          },
        ]}
        hideLegend
        // The curve is redrawn on every keystroke; animating each redraw would only lag behind the input.
        skipAnimation
        sx={{
          '& .MuiLineChart-areaPlot path': { fillOpacity: 0.2 },
          '& .MuiLineChart-linePlot path': { strokeWidth: 2.5 },
        }}
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
      />
    </Box>
  );
}

import CampaignIcon from '@mui/icons-material/Campaign';
import FlagIcon from '@mui/icons-material/Flag';
import GppBadIcon from '@mui/icons-material/GppBad';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import StopCircleIcon from '@mui/icons-material/StopCircle';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useGameEventsPageQuery, type EventType, type GameEvent } from '../api';
import { FilteredMonitorList, useFilteredPage } from './FilteredMonitorList';
import { statusColor } from './statusColors';
import { formatDateTime } from '@/shared/lib/dateTime';

export const EVENTS_PAGE_SIZE = 50;
const EVENT_TYPES: EventType[] = ['FlagSubmit', 'CheatDetected', 'ContainerStart', 'ContainerDestroy', 'Normal'];

const ICONS: Record<EventType, ReactElement> = {
  Normal: <CampaignIcon color="info" />,
  FlagSubmit: <FlagIcon color="primary" />,
  CheatDetected: <GppBadIcon color="error" />,
  ContainerStart: <PlayCircleIcon color="success" />,
  ContainerDestroy: <StopCircleIcon color="disabled" />,
};

/** What happened, in the reader's language, from the event's values (reference §3.6). */
function EventText({ event }: { event: GameEvent }) {
  const { t } = useTranslation('monitor');
  const [first = '', second = '', third = ''] = event.values;
  switch (event.type) {
    case 'FlagSubmit':
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 0.5 }}>
          <span>{t('event.text.FlagSubmit', { challenge: third })}</span>
          <Chip
            size="small"
            variant="outlined"
            label={t(`status.${first}`, { defaultValue: first })}
            sx={(theme) => {
              const color = statusColor(first, theme.palette.mode);
              return { color, borderColor: color };
            }}
          />
          <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {second}
          </Typography>
        </Stack>
      );
    case 'CheatDetected':
      return <span>{t('event.text.CheatDetected', { challenge: first, team: second, source: third })}</span>;
    case 'ContainerStart':
    case 'ContainerDestroy':
      return <span>{t(`event.text.${event.type}`, { challenge: second })}</span>;
    default:
      return <span>{event.values.join(' ')}</span>;
  }
}

/**
 * `/games/:id/monitor/events`: the game's events, newest first, one page at a time, narrowed to one
 * type and searched (team, user, what happened) on the server; pushed live by the monitor hub on top
 * of the 10 s polling.
 */
export default function EventsPage() {
  const { t, i18n } = useTranslation('monitor');
  const page = useFilteredPage<EventType, GameEvent>(useGameEventsPageQuery, EVENTS_PAGE_SIZE);
  const events = page.rows;

  return (
    <FilteredMonitorList
      page={page}
      labels={{ search: t('event.search'), filter: t('event.filter'), all: t('event.all') }}
      values={EVENT_TYPES}
      labelOf={(item) => t(`event.type.${item}`)}
      iconOf={(item) => ICONS[item]}
    >
      <List aria-label={t('event.list')} aria-busy={page.isFetching}>
        {events.length === 0 ? (
          <ListItem>
            <ListItemText secondary={page.isFetching ? t('loading') : t('event.empty')} />
          </ListItem>
        ) : (
          events.map((event, index) => (
            <ListItem key={`${event.time}-${index}`} divider>
              {/* An image with a name: a plain element may not carry a label (ARIA 1.2). */}
              <ListItemIcon role="img" aria-label={t(`event.type.${event.type}`)}>
                {ICONS[event.type]}
              </ListItemIcon>
              <ListItemText
                primary={<EventText event={event} />}
                secondary={t('event.meta', {
                  team: event.team || '—',
                  user: event.user || '—',
                  time: formatDateTime(event.time, i18n.language, 'seconds'),
                })}
                slotProps={{ primary: { component: 'div' } }}
              />
            </ListItem>
          ))
        )}
      </List>
    </FilteredMonitorList>
  );
}

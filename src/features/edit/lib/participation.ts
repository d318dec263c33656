import type { ParticipationStatus } from '../api';

/**
 * The statuses an admin may move a participation to (spec §4): Pending → Accepted or Rejected,
 * Accepted → Suspended, Suspended → Accepted; Rejected and Unsubmitted allow nothing. The server
 * refuses everything else, so the page offers only these.
 */
export function reviewActions(status: ParticipationStatus): ParticipationStatus[] {
  switch (status) {
    case 'Pending':
      return ['Accepted', 'Rejected'];
    case 'Accepted':
      return ['Suspended'];
    case 'Suspended':
      return ['Accepted'];
    case 'Rejected':
    case 'Unsubmitted':
      return [];
  }
}

export const PARTICIPATION_STATUSES: readonly ParticipationStatus[] = [
  'Pending',
  'Accepted',
  'Suspended',
  'Rejected',
  'Unsubmitted',
];

export const STATUS_COLOR: Record<ParticipationStatus, 'warning' | 'success' | 'error' | 'default' | 'info'> = {
  Pending: 'warning',
  Accepted: 'success',
  Suspended: 'error',
  Rejected: 'default',
  Unsubmitted: 'info',
};

/** Answer statuses in the colours of the operation results (spec §3): the monitor's reading aid. */
export const STATUS_COLORS: Record<string, string> = {
  Accepted: '#2f9e44',
  WrongAnswer: '#e03131',
  CheatDetected: '#f76707',
  FlagSubmitted: '#f08c00',
  NotFound: '#7048e8',
};

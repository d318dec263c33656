import { useParams } from 'react-router';

/** A route's id parameter as a number, or NaN when it is not a positive integer ("abc", "1e3", "-1"). */
export const parseRouteId = (id: string | undefined): number =>
  id !== undefined && /^\d+$/.test(id) ? Number(id) : Number.NaN;

/** The `:id` of a game route as a number, or NaN when it is not a positive integer. */
export function useGameId(): number {
  return parseRouteId(useParams().id);
}

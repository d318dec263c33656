import { useParams } from 'react-router';

/** The `:id` of a game route as a number, or NaN when it is not a positive integer. */
export function useGameId(): number {
  const { id } = useParams();
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : Number.NaN;
}

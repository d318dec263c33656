import { useEffect, useState } from 'react';

/** Where a game stands in time: before its start, between start and end, or after its end. */
export type GamePhase = 'upcoming' | 'running' | 'ended';

export function gamePhase(game: { start: number; end: number }, now = Date.now()): GamePhase {
  if (now < game.start) return 'upcoming';
  if (now > game.end) return 'ended';
  return 'running';
}

/** Share of the game's time already gone, 0–100. */
export function elapsedPercent(game: { start: number; end: number }, now = Date.now()): number {
  const length = game.end - game.start;
  if (length <= 0) return now >= game.end ? 100 : 0;
  return Math.min(100, Math.max(0, ((now - game.start) / length) * 100));
}

/** A span of time as days, hours, minutes and seconds, the leading zero units left out. */
export function splitDuration(ms: number): { days: number; hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** The days and the rest as a clock ("03:04:05"); the page words the days in the reader's language. */
export function countdownParts(ms: number): { days: number; clock: string } {
  const { days, hours, minutes, seconds } = splitDuration(ms);
  const clock = [hours, minutes, seconds].map((value) => String(value).padStart(2, '0')).join(':');
  return { days, clock };
}

/** The current time, re-read every `intervalMs`, so countdowns and phases move on their own. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

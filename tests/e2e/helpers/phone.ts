import assert from 'node:assert/strict';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { gameInstances, participations } from '../../../server/src/db/schema';
import { acceptedPlayer, newChallenge, newGame, settle, submit, type Player } from '../../server/game/support';
import type { Client } from '../../server/edit/support';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1440, height: 900 } as const;

export interface BusyGame {
  gameId: number;
  staticTitle: string;
  players: Player[];
  /** The team that submitted another team's dynamic flag, and that team. */
  cheater: Player;
  victim: Player;
}

/**
 * A running game with enough teams for a second scoreboard page: every team solves a static
 * challenge (one after another, so ranks are distinct), a few answer wrongly, and one submits another
 * team's dynamic flag, which makes a cheat record.
 */
export async function seedBusyGame(app: FastifyInstance, admin: Client, teams: number): Promise<BusyGame> {
  const game = await newGame(admin, { title: 'Phone Cup' });
  const solvable = await newChallenge(admin, game.id, { flags: ['flag{phone_static}'] });
  const dynamic = await newChallenge(admin, game.id, { type: 'DynamicContainer', flagTemplate: 'flag{[TEAM_HASH]}' });
  const players: Player[] = [];
  for (let index = 0; index < teams; index++) players.push(await acceptedPlayer(app, game.id));
  for (const [index, player] of players.entries()) {
    if (index % 10 === 0) await submit(player, game.id, solvable.id, `flag{phone_wrong_${index}}`);
    await submit(player, game.id, solvable.id, 'flag{phone_static}');
  }
  const [cheater, victim] = players as [Player, Player];
  // A team's first view of the challenge gives it an instance holding its own flag.
  for (const player of [cheater, victim]) {
    const view = await player.api('GET', `/api/game/${game.id}/challenges/${dynamic.id}`);
    assert.equal(view.statusCode, 200, view.body);
  }
  const [victimTeam] = await app.db
    .select({ id: participations.id })
    .from(participations)
    .where(and(eq(participations.gameId, game.id), eq(participations.teamId, victim.team.id)));
  const [instance] = await app.db
    .select({ flag: gameInstances.flag })
    .from(gameInstances)
    .where(and(eq(gameInstances.challengeId, dynamic.id), eq(gameInstances.participationId, victimTeam!.id)));
  const stolen = instance?.flag;
  assert.ok(stolen, 'the victim has an instance with its own flag');
  await submit(cheater, game.id, dynamic.id, stolen);
  await settle(app);
  return { gameId: game.id, staticTitle: solvable.title, players, cheater, victim };
}

/** Nothing on the page is wider than the window (no sideways scrolling of the whole page). */
export async function pageWidthFits(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
}

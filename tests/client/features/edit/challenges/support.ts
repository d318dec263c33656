import { http, HttpResponse } from 'msw';
import type { ChallengeEditDetailModel, ChallengeInfoModel } from '@/features/edit/api';
import { server } from '../../../msw';
import { API } from '../../../helpers/render';
import { mockAdmin } from '../../admin/support';
import { NEW_CHALLENGE_DEFAULTS } from '../../../../helpers/challenge-defaults';

export const GAME_ID = 7;

export function detail(overrides: Partial<ChallengeEditDetailModel> = {}): ChallengeEditDetailModel {
  return {
    ...NEW_CHALLENGE_DEFAULTS,
    id: 11,
    title: 'Baby RSA',
    content: 'Find **e**.',
    category: 'Crypto',
    type: 'StaticAttachment',
    ...overrides,
  };
}

export const info = (challenge: ChallengeEditDetailModel): ChallengeInfoModel => ({
  id: challenge.id,
  title: challenge.title,
  category: challenge.category,
  type: challenge.type,
  isEnabled: challenge.isEnabled,
  score: challenge.originalScore,
  minScore: Math.floor(challenge.originalScore * challenge.minScoreRate),
  originalScore: challenge.originalScore,
});

/**
 * A signed-in admin, the game frame, and a tiny in-memory edit API over the given challenges that
 * records what the pages send.
 */
export function serveChallenges(initial: ChallengeEditDetailModel[]) {
  mockAdmin();
  let challenges = initial;
  let nextFlag = 100;
  const sent = {
    updates: [] as Array<{ id: number; body: Record<string, unknown> }>,
    flagBodies: [] as unknown[],
    flagDeletes: [] as number[],
    attachments: [] as unknown[],
    /** Files per upload: jsdom's File loses its name in Node's FormData (the browser test checks names). */
    uploads: [] as number[],
    recounts: 0,
    deletes: [] as number[],
  };
  const find = (id: unknown) => challenges.find((item) => item.id === Number(id));
  const patch = (id: unknown, change: Partial<ChallengeEditDetailModel>) => {
    challenges = challenges.map((item) => (item.id === Number(id) ? { ...item, ...change } : item));
  };
  server.use(
    http.get(`${API}/edit/games/:id`, () =>
      HttpResponse.json({ id: GAME_ID, title: 'Spring cup', start: 0, end: 1, bloodBonus: 0 }),
    ),
    http.get(`${API}/edit/games/:id/challenges`, () => HttpResponse.json(challenges.map(info))),
    http.post(`${API}/edit/games/:id/challenges/updateaccepted`, () => {
      sent.recounts += 1;
      return new HttpResponse(null, { status: 200 });
    }),
    http.delete(`${API}/edit/games/:id/challenges/:cId`, ({ params }) => {
      sent.deletes.push(Number(params.cId));
      challenges = challenges.filter((item) => item.id !== Number(params.cId));
      return new HttpResponse(null, { status: 200 });
    }),
    http.get(`${API}/edit/games/:id/challenges/:cId`, ({ params }) => {
      const challenge = find(params.cId);
      return challenge
        ? HttpResponse.json(challenge)
        : HttpResponse.json({ title: 'Challenge not found', status: 404 }, { status: 404 });
    }),
    http.put(`${API}/edit/games/:id/challenges/:cId`, async ({ params, request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.updates.push({ id: Number(params.cId), body });
      const challenge = find(params.cId)!;
      if (body.isEnabled === true && challenge.flags.length === 0) {
        return HttpResponse.json(
          { title: 'Add at least one flag before enabling the challenge', status: 400 },
          { status: 400 },
        );
      }
      patch(params.cId, body as Partial<ChallengeEditDetailModel>);
      return HttpResponse.json(find(params.cId));
    }),
    http.post(`${API}/edit/games/:id/challenges/:cId/flags`, async ({ params, request }) => {
      const body = (await request.json()) as Array<{ flag: string }>;
      sent.flagBodies.push(body);
      const challenge = find(params.cId)!;
      patch(params.cId, {
        flags: [...challenge.flags, ...body.map((item) => ({ id: nextFlag++, flag: item.flag, attachment: null }))],
      });
      return new HttpResponse(null, { status: 200 });
    }),
    http.delete(`${API}/edit/games/:id/challenges/:cId/flags/:fId`, ({ params }) => {
      sent.flagDeletes.push(Number(params.fId));
      const challenge = find(params.cId)!;
      patch(params.cId, { flags: challenge.flags.filter((flag) => flag.id !== Number(params.fId)) });
      return HttpResponse.json('Success');
    }),
    http.post(`${API}/assets`, async ({ request }) => {
      const form = await request.formData();
      const files = form.getAll('files');
      sent.uploads.push(files.length);
      return HttpResponse.json(files.map((_file, index) => ({ hash: String(index + 1).repeat(64), name: 'file' })));
    }),
    http.post(`${API}/edit/games/:id/challenges/:cId/attachment`, async ({ params, request }) => {
      const body = (await request.json()) as { attachmentType: string; fileHash?: string };
      sent.attachments.push(body);
      patch(params.cId, {
        attachment:
          body.attachmentType === 'Local'
            ? { id: 1, type: 'Local', url: `/assets/${body.fileHash}/notes.txt`, fileSize: 1536 }
            : null,
      });
      return new HttpResponse(null, { status: 200 });
    }),
  );
  return sent;
}

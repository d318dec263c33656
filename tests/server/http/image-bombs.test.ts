import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { files, teams } from '../../../server/src/db/schema';
import { blobPath } from '../../../server/src/lib/blobs';
import { HttpError } from '../../../server/src/lib/http-error';
import {
  inConversionSlot,
  MAX_CONVERSIONS,
  MAX_IMAGE_SIDE,
  MAX_SMALL_OUTPUT_INPUT_PIXELS,
  MAX_WAITING_CONVERSIONS,
  toWebp,
} from '../../../server/src/lib/images';
import { userRow } from '../account/support';
import { createTestApp, type TestApp } from '../helpers/app';
import { assertMatchesContract } from '../helpers/contract';
import { engines } from '../helpers/database';
import { multipart } from '../helpers/multipart';
import { asUser } from '../helpers/users';

/**
 * Pictures that are small on disk and huge decoded (the audit: a 33 KiB 16000×3100 GIF avatar took
 * 1.5 s of CPU and ~257 MB) are refused from their header, and conversions take turns in the process.
 */

const solid = (width: number, height: number, colour = '#0ac81e') =>
  sharp({ create: { width, height, channels: 3, background: colour } });
const png = (width: number, height: number, colour?: string) => solid(width, height, colour).png().toBuffer();

let bomb: Promise<Buffer> | undefined;
/** The audit's picture: 16000×3100 (49.6 Mpx) of one colour, ~33 KiB as GIF. Made once (a few seconds). */
const gifBomb = () => (bomb ??= solid(16000, 3100).gif({ colours: 2, effort: 1, dither: 0 }).toBuffer());

const isHttpError = (status: number, key: string) => (error: unknown) =>
  error instanceof HttpError && error.statusCode === status && error.messageKey === key;

/** `count` conversions holding their slots (or places in the queue) until `release()`. */
function holdSlots(count: number) {
  const gates: Array<() => void> = [];
  let running = 0;
  let peak = 0;
  const tasks = Array.from({ length: count }, () =>
    inConversionSlot(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running--;
    }),
  );
  return {
    tasks,
    gates,
    get running() {
      return running;
    },
    get peak() {
      return peak;
    },
    /** Lets every holder finish, also those still queued, and waits for them. */
    async release() {
      while (gates.length > 0 || running > 0) {
        gates.splice(0).forEach((open) => open());
        await nextTurn();
      }
      await Promise.allSettled(tasks);
    },
  };
}

describe('image limits (lib/images.ts)', () => {
  test('a thumbnail takes at most 4096×4096; a picture kept at its size (a poster) may have more', async () => {
    const picture = await png(4200, 4100);
    await assert.rejects(toWebp(picture, { width: 300 }), (error: unknown) => {
      assert.ok(isHttpError(400, 'assets.imageDimensionsTooLarge')(error), String(error));
      assert.deepEqual((error as HttpError).params, {
        width: 4200,
        height: 4100,
        maxSide: MAX_IMAGE_SIDE,
        maxMegapixels: MAX_SMALL_OUTPUT_INPUT_PIXELS / 1_000_000,
      });
      return true;
    });
    const poster = await sharp(await toWebp(picture)).metadata();
    assert.deepEqual([poster.format, poster.width, poster.height], ['webp', 4200, 4100]);
  });

  test('any picture over 16383 px on a side (WebP’s limit) is refused before decoding, resized or not', async () => {
    const strip = await png(MAX_IMAGE_SIDE + 1, 8);
    await assert.rejects(toWebp(strip), isHttpError(400, 'assets.imageDimensionsTooLarge'));
    await assert.rejects(toWebp(strip, { width: 300 }), isHttpError(400, 'assets.imageDimensionsTooLarge'));
  });

  test('a thin strip that resizing would enlarge past WebP’s limit stays refused as not convertible', async () => {
    // 100×16000 at 300 px wide would be 48000 high: refused from the header, as the encoder would.
    await assert.rejects(toWebp(await png(100, 16000), { width: 300 }), isHttpError(400, 'assets.invalidImage'));
  });

  test('an animated GIF is judged by its first frame, the only one converted', async () => {
    // Six 1000×2800 frames: 16800 high and 16.8 Mpx in all, over both limits; 2.8 Mpx a frame.
    const frames = await Promise.all(['#f00', '#0f0', '#00f', '#ff0', '#0ff', '#f0f'].map((c) => png(1000, 2800, c)));
    const animation = await sharp(frames, { join: { animated: true } })
      .gif({ colours: 2, effort: 1, dither: 0 })
      .toBuffer();
    const all = await sharp(animation, { pages: -1, limitInputPixels: false }).metadata();
    assert.deepEqual([all.pages, all.pageHeight, all.height], [6, 2800, 16800], 'the animation is as described');
    const avatar = await sharp(await toWebp(animation, { width: 300 })).metadata();
    assert.deepEqual([avatar.format, avatar.width, avatar.height, avatar.pages], ['webp', 300, 840, undefined]);
  });

  test(`${MAX_CONVERSIONS} run at once and ${MAX_WAITING_CONVERSIONS} wait; one more is refused with 429, and a freed slot goes to the next`, async () => {
    const held = holdSlots(MAX_CONVERSIONS + MAX_WAITING_CONVERSIONS);
    try {
      await nextTurn();
      assert.equal(held.running, MAX_CONVERSIONS);
      await assert.rejects(
        inConversionSlot(async () => assert.fail('a conversion past the full queue ran')),
        (error: unknown) =>
          isHttpError(429, 'error.tooManyRequests')(error) && (error as HttpError).params.seconds === 2,
      );
      // A real conversion meets the same queue (the header is read first: a bomb still gets its 400).
      await assert.rejects(toWebp(await png(40, 40), { width: 300 }), isHttpError(429, 'error.tooManyRequests'));
      await assert.rejects(toWebp(await gifBomb(), { width: 300 }), isHttpError(400, 'assets.imageDimensionsTooLarge'));
      // One finished: the first in line takes its slot, and still no more than two run.
      held.gates.shift()!();
      await nextTurn();
      assert.equal(held.running, MAX_CONVERSIONS);
      assert.equal(held.gates.length, MAX_CONVERSIONS);
    } finally {
      await held.release();
    }
    assert.equal(held.peak, MAX_CONVERSIONS);
    // The queue emptied: conversions are taken again.
    assert.equal((await sharp(await toWebp(await png(40, 40))).metadata()).format, 'webp');
  });

  test('many real conversions at once never have more than two in sharp’s pipeline', async () => {
    const colours = ['#100', '#200', '#300', '#400', '#500', '#600', '#700', '#800', '#900', '#a00'];
    const pictures = await Promise.all(colours.map((colour) => png(1500, 1500, colour)));
    // sharp's own count of pipelines being processed on the thread pool (no mock of sharp): sampled
    // while the conversions run. Without the limit it reaches the pool's four threads.
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, sharp.counters().process)), 1);
    let outputs: Buffer[];
    try {
      outputs = await Promise.all(pictures.map((picture) => toWebp(picture, { width: 300 })));
    } finally {
      clearInterval(sample);
    }
    assert.equal(outputs.length, colours.length);
    assert.ok(peak <= MAX_CONVERSIONS, `${peak} pipelines ran at once`);
    assert.ok(peak >= 1, 'the sampling saw the conversions');
  });
});

for (const engine of engines()) {
  describe(`image bombs over HTTP (${engine.name})`, () => {
    let ctx: TestApp;
    before(async () => {
      ctx = await createTestApp(engine);
    });
    after(async () => ctx.close());

    const put = (url: string, cookie: string, content: Buffer, headers: Record<string, string> = {}) => {
      const body = multipart([{ field: 'file', filename: 'picture.gif', content, contentType: 'image/gif' }]);
      return ctx.app.inject({
        method: url.endsWith('/logo') ? 'POST' : 'PUT',
        url,
        headers: { ...body.headers, cookie, ...headers },
        payload: body.payload,
      });
    };
    const fileCount = async () => (await ctx.app.db.select().from(files)).length;

    test('a 16000×3100 GIF of a few KiB as a user avatar gets a localised 400 and nothing is stored', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const content = await gifBomb();
      assert.ok(content.length < 64 * 1024, `${content.length} bytes`);
      const before = await fileCount();

      const response = await put('/api/account/avatar', cookie, content, { 'accept-language': 'en-US' });
      assert.equal(response.statusCode, 400, response.body);
      assertMatchesContract('accountAvatar', response.json(), 400);
      assert.deepEqual(response.json(), {
        title:
          'The image is 16000 × 3100 pixels, more than this picture may have (at most 16383 pixels on either side and 16.8 megapixels in all); please scale it down',
        status: 400,
      });
      const german = await put('/api/account/avatar', cookie, content, { 'accept-language': 'de-DE' });
      assert.equal(german.statusCode, 400);
      assert.match(german.json().title, /^Das Bild hat 16000 × 3100 Pixel .*16383 Pixel pro Seite und 16,8 Megapixel/);

      assert.equal(await fileCount(), before);
      assert.equal((await userRow(ctx.app, user.id))!.avatarHash, null);
    });

    test('the same GIF as a team avatar or as the logo is refused too', async () => {
      const { cookie } = await asUser(ctx.app);
      const team = await ctx.app.inject({
        method: 'POST',
        url: '/api/team',
        headers: { cookie },
        payload: { name: 'Bombers' },
      });
      assert.equal(team.statusCode, 200, team.body);
      const teamId = team.json().id as number;
      const admin = await asUser(ctx.app, 'Admin');
      const before = await fileCount();

      const teamAvatar = await put(`/api/team/${teamId}/avatar`, cookie, await gifBomb());
      assert.equal(teamAvatar.statusCode, 400, teamAvatar.body);
      assert.match(teamAvatar.json().title, /16000 × 3100/);
      const logo = await put('/api/admin/config/logo', admin.cookie, await gifBomb());
      assert.equal(logo.statusCode, 400, logo.body);
      assert.match(logo.json().title, /16000 × 3100/);

      assert.equal(await fileCount(), before);
      const [row] = await ctx.app.db.select().from(teams).where(eq(teams.id, teamId));
      assert.equal(row?.avatarHash, null);
    });

    test('an avatar of 4096×4096 (the limit) still converts; one pixel row more is refused', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const refused = await put('/api/account/avatar', cookie, await png(4096, 4097));
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.json().title, /4096 × 4097/);
      assert.equal((await userRow(ctx.app, user.id))!.avatarHash, null);

      const response = await put('/api/account/avatar', cookie, await png(4096, 4096));
      assert.equal(response.statusCode, 200, response.body);
      const hash = (response.json() as string).split('/')[2]!;
      const stored = await sharp(fs.readFileSync(blobPath(ctx.env.dataDir, hash))).metadata();
      assert.deepEqual([stored.format, stored.width, stored.height], ['webp', 300, 300]);
      assert.equal((await userRow(ctx.app, user.id))!.avatarHash, hash);
    });

    test('an avatar upload meeting a full conversion queue gets 429 with Retry-After, nothing stored', async () => {
      const { user, cookie } = await asUser(ctx.app);
      const content = await png(600, 400);
      const before = await fileCount();
      const held = holdSlots(MAX_CONVERSIONS + MAX_WAITING_CONVERSIONS);
      try {
        await nextTurn();
        const response = await put('/api/account/avatar', cookie, content);
        assert.equal(response.statusCode, 429, response.body);
        assert.equal(response.headers['retry-after'], '2');
        assert.equal(response.json().status, 429);
        assert.equal(await fileCount(), before);
        assert.equal((await userRow(ctx.app, user.id))!.avatarHash, null);
      } finally {
        await held.release();
      }
      const again = await put('/api/account/avatar', cookie, content);
      assert.equal(again.statusCode, 200, again.body);
    });
  });
}

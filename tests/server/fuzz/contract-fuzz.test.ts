/**
 * Contract fuzzing: property-based requests generated from the OpenAPI contract go
 * to every operation as an anonymous visitor, a player and an admin. Wrong types, missing and extra
 * fields, huge and deeply nested values, odd Unicode, hostile path and query ids and the wrong media
 * types must never get an answer >= 500, and every error must be GZCTF's `{title, status}` with
 * `status` equal to the HTTP status, unless the contract says otherwise: an error it declares without
 * a body must be empty, and an error whose schema carries more (`data`) may carry that.
 *
 * A body the route must not act on (the wrong media type, invalid UTF-8, over the size limit) must
 * be refused (>= 400).
 *
 * CI runs FUZZ_RUNS (default 15) requests per operation, callers mixed. Longer runs and reproduction:
 *
 *   FUZZ_RUNS=2000 node --import tsx --test tests/server/fuzz/contract-fuzz.test.ts
 *   FUZZ_OPS='^gameSubmit$' FUZZ_SEED=<seed> FUZZ_PATH=<path> ...  (seed and path are printed on failure)
 *   FUZZ_KEEP_GOING=1 ...   every distinct failure of an operation, not just the first
 *
 * Bodies start from the contract's schemas or a known-good body (exemplars.ts) and break one part.
 * Each operation runs on a seeded world (world.ts); when a fuzzed request destroys part of it (a
 * delete, a sign-out, a role change), the world is seeded again before the next operation, so later
 * operations still reach their handlers. Each test's diagnostics show the answers per caller.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { listOperations, loadContract, type ContractOperation } from '../../../server/src/contract/contract';
import type { Settings } from '../../../server/src/modules/settings/settings.defaults';
import { createTestApp, testEnv, type TestApp } from '../helpers/app';
import { engines } from '../helpers/database';
import { requestsFor, SchemaArbitraries, type Caller, type FuzzRequest } from './arbitraries';
import { seedWorld, worldIntact, type World } from './world';

const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
/** Collects every distinct failure of an operation instead of stopping at the first (for long runs). */
const KEEP_GOING = process.env.FUZZ_KEEP_GOING === '1';
const ONLY = process.env.FUZZ_OPS === undefined ? undefined : new RegExp(process.env.FUZZ_OPS);

const document = loadContract();
const schemas = new SchemaArbitraries(document);
const operations = listOperations(document).filter((operation) => !ONLY || ONLY.test(operation.operationId));

/**
 * Operations whose successful answer costs seconds (a spreadsheet built in a worker thread): a few
 * requests each, or they alone would take most of the time budget.
 */
const HEAVY = new Set(['gameScoreboardSheet', 'gameSubmissionSheet']);

/** GZCTF's special codes with HTTP 400 (contract: RequestResponse): game not started, game ended. */
const SPECIAL_STATUSES = new Set([10001, 10002]);

interface ResponseSpec {
  content?: Record<string, { schema?: Record<string, unknown> }>;
}

function declaredResponse(operation: ContractOperation, status: number): ResponseSpec | undefined {
  const spec = document.paths[operation.path]![operation.method] as { responses?: Record<string, ResponseSpec> };
  return spec.responses?.[String(status)];
}

/**
 * Error answers the contract declares without a body, as GZCTF sends them: the PoW challenge's 404
 * when the captcha is not HashPow. Those may be empty.
 */
function declaredWithoutBody(operation: ContractOperation, status: number): boolean {
  const response = declaredResponse(operation, status);
  return response !== undefined && response.content === undefined;
}

/**
 * Keys an error body may carry besides `title` and `status`: those the contract's schema for that
 * status declares (GZCTF's `RequestResponse<T>` errors carry `data`, e.g. a refused e-mail change).
 */
function declaredErrorKeys(operation: ContractOperation, status: number): Set<string> {
  const schema = schemas.resolve(declaredResponse(operation, status)?.content?.['application/json']?.schema);
  return new Set([
    ...Object.keys((schema.properties ?? {}) as object),
    ...(EXTRA_ERROR_KEYS[operation.operationId] ?? []),
  ]);
}

/**
 * Error keys the contract's text allows where its schema does not: with e-mail confirmation off, an
 * e-mail change is refused with GZCTF's `RequestResponse<bool>` (`data: false`, "ask an admin").
 */
const EXTRA_ERROR_KEYS: Record<string, string[]> = { accountChangeEmail: ['data'] };

function describeAnswer(request: FuzzRequest, response: LightMyRequestResponse): string {
  const body = response.body.length > 500 ? `${response.body.slice(0, 500)}…` : response.body;
  return `${request.caller} ${request.method} ${request.url.slice(0, 300)} [${request.note}] -> ${response.statusCode} ${String(response.headers['content-type'])} ${body}`;
}

function checkAnswer(operation: ContractOperation, request: FuzzRequest, response: LightMyRequestResponse): void {
  const status = response.statusCode;
  const answer = () => describeAnswer(request, response);
  assert.ok(status < 500, `server error: ${answer()}`);
  assert.ok(!request.refuse || status >= 400, `body not refused: ${answer()}`);
  if (status < 400) return;
  // (A hostile path such as `..` can land on another route, whose errors are {title, status} again.)
  if (declaredWithoutBody(operation, status) && response.body === '') return;
  assert.match(String(response.headers['content-type']), /^application\/json/, `not JSON: ${answer()}`);
  const body = response.json<Record<string, unknown>>();
  const allowed = declaredErrorKeys(operation, status);
  const extra = Object.keys(body).filter((key) => key !== 'title' && key !== 'status' && !allowed.has(key));
  assert.deepEqual(extra, [], `not {title, status}: ${answer()}`);
  assert.ok(typeof body.title === 'string' && body.title.length > 0, `no title: ${answer()}`);
  assert.ok(
    body.status === status || (status === 400 && SPECIAL_STATUSES.has(body.status as number)),
    `status in the body differs: ${answer()}`,
  );
}

type Tally = Record<Caller, Record<string, number>>;

function summary(tally: Tally): string {
  return (Object.keys(tally) as Caller[])
    .map(
      (caller) =>
        `${caller} ${
          Object.entries(tally[caller])
            .sort()
            .map(([status, count]) => `${status}:${count}`)
            .join(' ') || '-'
        }`,
    )
    .join(' | ');
}

for (const engine of engines()) {
  describe(`contract fuzzing on ${engine.name}`, () => {
    let ctx: TestApp;
    let world: World;
    let settings: Settings;
    let reseeds = 0;

    before(async () => {
      // A built client, so paths that leave /api (`/assets/..`) reach the page fallback as in production.
      const env = testEnv();
      const distDir = path.join(env.dataDir, 'dist');
      fs.mkdirSync(distDir, { recursive: true });
      fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>%title%</title><div id=root></div>');
      ctx = await createTestApp(engine, { env: { ...env, distDir }, rateLimit: { disabled: true } });
      settings = structuredClone(await ctx.app.settings.get());
      world = await seedWorld(ctx.app);
    });
    after(async () => {
      await ctx?.close();
    });

    /** Puts back what fuzzed requests may have broken: the settings (API encryption, captcha...), then the world. */
    async function repair() {
      if (JSON.stringify(await ctx.app.settings.get()) !== JSON.stringify(settings)) {
        await ctx.app.settings.update(settings);
      }
      if (!(await worldIntact(ctx.app, world))) {
        reseeds += 1;
        world = await seedWorld(ctx.app);
      }
    }

    for (const operation of operations) {
      test(`${operation.method.toUpperCase()} ${operation.path} (${operation.operationId})`, async (t) => {
        await repair();
        const tally: Tally = { anon: {}, player: {}, admin: {} };
        const findings = new Map<string, string>();
        const requests = requestsFor(operation, document, schemas, () => world.ids).map((request) =>
          // fast-check prints the counterexample with this, not the (possibly megabytes long) payload.
          Object.assign(request, {
            [fc.toStringMethod]: () =>
              `${request.caller} ${request.method} ${request.url.slice(0, 300)} [${request.note}]`,
          }),
        );
        await fc.assert(
          fc.asyncProperty(requests, async (request) => {
            const cookie = world.cookies[request.caller];
            const response = await ctx.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: { ...request.headers, ...(cookie ? { cookie } : {}) },
              ...(request.payload === undefined ? {} : { payload: request.payload }),
            });
            const key = String(response.statusCode);
            tally[request.caller][key] = (tally[request.caller][key] ?? 0) + 1;
            try {
              checkAnswer(operation, request, response);
            } catch (error) {
              if (!KEEP_GOING) throw error;
              const message = (error as Error).message;
              findings.set(`${response.statusCode} ${message.split(':')[0]}`, message.split('\n')[0]!);
            }
          }),
          {
            numRuns: HEAVY.has(operation.operationId) ? Math.min(RUNS, 4) : RUNS,
            endOnFailure: true,
            ...(SEED === undefined ? {} : { seed: SEED }),
            ...(PATH ? { path: PATH } : {}),
          },
        );
        t.diagnostic(summary(tally));
        assert.deepEqual([...findings.values()], []);
      });
    }

    /**
     * What the fuzzer found, held as plain requests. The malformed multipart body was fixed in
     * lib/uploads.ts; the central input handling answers the rest (plugins/app/strict-input.ts:
     * media types, UTF-8, decimal ids, router errors in `{title, status}`).
     */
    describe('findings', () => {
      const send = (
        caller: Caller,
        method: string,
        url: string,
        headers: Record<string, string>,
        payload?: string | Buffer,
      ) =>
        ctx.app.inject({
          method: method as 'GET',
          url,
          headers: { ...headers, ...(world.cookies[caller] ? { cookie: world.cookies[caller] } : {}) },
          ...(payload === undefined ? {} : { payload }),
        });

      function assertError(response: LightMyRequestResponse, status: number) {
        assert.equal(response.statusCode, status, response.body);
        assert.match(String(response.headers['content-type']), /^application\/json/);
        const body = response.json<Record<string, unknown>>();
        assert.deepEqual(Object.keys(body).sort(), ['status', 'title'], response.body);
        assert.equal(body.status, status);
      }

      test('a malformed multipart body is a 400, not a 500', async () => {
        await repair();
        for (const payload of [
          '{"a":1}',
          '--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nab',
        ]) {
          const response = await send(
            'player',
            'PUT',
            '/api/account/avatar',
            { 'content-type': 'multipart/form-data; boundary=x' },
            payload,
          );
          assertError(response, 400);
        }
        const noBoundary = await send('admin', 'POST', '/api/assets', { 'content-type': 'multipart/form-data' }, 'abc');
        assertError(noBoundary, 400);
      });

      test("a flag with a lone surrogate is an invalid flag, and spoils no one else's submission", async () => {
        await repair();
        const url = `/api/game/${world.ids.game}/challenges/${world.ids.challenge}`;
        const headers = { 'content-type': 'application/json' };
        // Sent together, so they share the intake's batched statement.
        const [bad, good] = await Promise.all([
          send('player', 'POST', url, headers, JSON.stringify({ flag: 'x\udbff' })),
          send('player', 'POST', url, headers, JSON.stringify({ flag: 'flag{wrong}' })),
        ]);
        assertError(bad, 400);
        assert.equal(good.statusCode, 200, good.body);
      });

      test('a body of a media type the route does not take is a 415', async () => {
        await repair();
        const body = JSON.stringify({ userName: world.ids.users[0], password: 'Passw0rd' });
        for (const type of [
          'multipart/form-data; boundary=x',
          'text/plain',
          'application/octet-stream',
          'application/x-www-form-urlencoded',
        ]) {
          assertError(await send('anon', 'POST', '/api/account/login', { 'content-type': type }, body), 415);
          assertError(
            await send('player', 'POST', '/api/team', { 'content-type': type }, JSON.stringify({ name: 'fuzz' })),
            415,
          );
        }
      });

      test('a JSON route sent no body at all refuses it', async () => {
        await repair();
        for (const [caller, method, url] of [
          ['anon', 'POST', '/api/account/login'],
          ['player', 'POST', '/api/team'],
          ['player', 'POST', `/api/game/${world.ids.game}`],
          ['admin', 'POST', '/api/edit/games'],
        ] as const) {
          const response = await send(caller, method, url, {});
          assert.ok(response.statusCode === 400 || response.statusCode === 415, `${url}: ${response.body}`);
          assertError(response, response.statusCode);
        }
      });

      test('JSON with invalid UTF-8 is a 400', async () => {
        await repair();
        const payload = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
        assertError(await send('player', 'POST', '/api/team', { 'content-type': 'application/json' }, payload), 400);
      });

      test('a body over the limit is a 413', async () => {
        await repair();
        const payload = `{"title":"${'B'.repeat(2 * 1024 * 1024)}"}`;
        assertError(
          await send('admin', 'POST', '/api/edit/posts', { 'content-type': 'application/json' }, payload),
          413,
        );
      });

      test('path ids are decimal digits within range', async () => {
        await repair();
        for (const id of ['0x10', '1e1', '+1', '99999999999999999999', '2147483648']) {
          assertError(await send('anon', 'GET', `/api/game/${id}`, {}), 400);
          assertError(await send('player', 'GET', `/api/team/${id}`, {}), 400);
        }
      });

      test('bad percent-encoding and over-long parameters get a {title, status} answer', async () => {
        await repair();
        for (const id of ['%', '%zz', '%ED%A0%80', '%ff%fe']) {
          assertError(await send('anon', 'GET', `/api/game/${id}`, {}), 400);
        }
        // Too long for the route's parameter, the path falls to the built client's catch-all: a 404.
        const long = await send('anon', 'GET', `/api/posts/${'A'.repeat(5_000)}`, {});
        assert.ok([400, 404, 414].includes(long.statusCode), long.body);
        assertError(long, long.statusCode);
      });
    });

    test('the world stood or was seeded again', (t) => {
      t.diagnostic(`world seeded again ${reseeds} times`);
      // Only the destructive operations (deletes, sign-out, role and status changes) may need a new world.
      assert.ok(reseeds <= Math.ceil(operations.length / 2), `${reseeds} reseeds for ${operations.length} operations`);
    });
  });
}

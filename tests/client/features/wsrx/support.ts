import { http, HttpResponse } from 'msw';
import { server } from '../../msw';

export const DAEMON = 'http://127.0.0.1:3307';

type Answer = number | 'network-error';

/**
 * The wsrx daemon's HTTP API as msw handlers, with every call recorded. Tests change the fields to
 * change what the daemon answers from then on.
 */
export function mockDaemon(base = DAEMON) {
  const daemon = {
    /** `GET /version`: a version, or a status / network error instead. */
    version: '0.5.0' as string | Answer,
    /** `GET /connect` status (202 Usable, 201 Pending, anything else Invalid). */
    connect: 202 as Answer,
    /** What `GET /connect` answers once `POST /connect` was called, if different. */
    connectAfterRegister: undefined as Answer | undefined,
    registerStatus: 201 as Answer,
    poolStatus: 200 as Answer,
    poolErrorText: '',
    pool: [] as Array<{ label?: string; remote: string; local: string; latency?: number }>,
    nextPort: 41234,
    calls: [] as string[],
    bodies: [] as Array<{ call: string; body: unknown }>,
    registered: false,
    count(call: string) {
      return this.calls.filter((made) => made === call).length;
    },
  };

  const answer = (value: Answer, ok: () => Response) => {
    if (value === 'network-error') return HttpResponse.error();
    if (value >= 200 && value < 300) return ok();
    return new HttpResponse(daemon.poolErrorText || null, { status: value });
  };
  const record = async (call: string, request?: Request) => {
    daemon.calls.push(call);
    if (request) daemon.bodies.push({ call, body: (await request.json()) as unknown });
  };

  server.use(
    http.get(`${base}/version`, async () => {
      await record('GET /version');
      const { version } = daemon;
      if (typeof version === 'number' || version === 'network-error')
        return answer(version, () => HttpResponse.json({}));
      return HttpResponse.json({ version });
    }),
    http.get(`${base}/connect`, async () => {
      await record('GET /connect');
      const status =
        daemon.registered && daemon.connectAfterRegister !== undefined ? daemon.connectAfterRegister : daemon.connect;
      return answer(status, () => new HttpResponse(null, { status: status as number }));
    }),
    http.post(`${base}/connect`, async ({ request }) => {
      await record('POST /connect', request);
      daemon.registered = true;
      return answer(daemon.registerStatus, () => new HttpResponse(null, { status: daemon.registerStatus as number }));
    }),
    http.get(`${base}/pool`, async () => {
      await record('GET /pool');
      return answer(daemon.poolStatus, () => HttpResponse.json(daemon.pool));
    }),
    http.post(`${base}/pool`, async ({ request }) => {
      await record('POST /pool', request);
      const { body } = daemon.bodies.at(-1) as { body: { label: string; remote: string; local: string } };
      return answer(daemon.poolStatus, () => {
        const host = body.local.split(':')[0];
        const instance = { label: body.label, remote: body.remote, local: `${host}:${daemon.nextPort++}`, latency: 0 };
        daemon.pool.push(instance);
        return HttpResponse.json(instance, { status: 201 });
      });
    }),
    http.delete(`${base}/pool`, async ({ request }) => {
      await record('DELETE /pool', request);
      const { body } = daemon.bodies.at(-1) as { body: { local: string } };
      daemon.pool = daemon.pool.filter((instance) => instance.local !== body.local);
      return answer(daemon.poolStatus, () => new HttpResponse(null, { status: 200 }));
    }),
  );
  return daemon;
}

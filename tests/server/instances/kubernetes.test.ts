import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ContainerEngineError, KEPT_CAPABILITIES, LABELS } from '../../../server/src/modules/instances/backend';
import {
  createKubernetesBackend,
  type KubernetesBackendOptions,
} from '../../../server/src/modules/instances/kubernetes.backend';
import { labelValue } from '../../../server/src/modules/instances/kubernetes.objects';
import { FakeKubernetes, type ImageFailure } from '../../helpers/fake-kubernetes';
import { containerSpec } from './support';

const NAMESPACE = 'gzctf-test';
const PLATFORM = randomUUID();
const BLOCKED = ['10.0.0.0/8', '169.254.0.0/16'];
const DNS = ['1.1.1.1', '8.8.8.8'];
const PODS = /\/namespaces\/gzctf-test\/pods/;
const SERVICES = /\/namespaces\/gzctf-test\/services/;

/** Rejects with a ContainerEngineError and returns its message. */
async function engineFailure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('expected a ContainerEngineError'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ContainerEngineError, String(error));
  return error.message;
}

describe('the Kubernetes backend against a stand-in API server', () => {
  let fake: FakeKubernetes;
  let warnings: string[];

  const backend = (overrides: Partial<KubernetesBackendOptions> = {}) =>
    createKubernetesBackend({
      platformId: PLATFORM,
      publicEntry: 'ctf.example.org',
      blockedCidrs: BLOCKED,
      log: { info: () => {}, warn: (message) => warnings.push(message) },
      settings: { namespace: NAMESPACE, kubeconfig: undefined, dns: DNS },
      kubeConfig: fake.kubeConfig(),
      pollMs: 5,
      ...overrides,
    });

  beforeEach(async () => {
    fake = await FakeKubernetes.start();
    warnings = [];
  });
  afterEach(async () => fake.close());

  describe('init', () => {
    it('creates the namespace and an egress policy for this platform', async () => {
      await backend().init();
      assert.deepEqual(
        fake.objects('namespaces').map((ns) => ns.metadata.name),
        [NAMESPACE],
      );
      const [policy, ...others] = fake.objects('networkpolicies', NAMESPACE);
      assert.equal(others.length, 0);
      assert.equal(policy!.metadata.name, `gzctf-policy-${PLATFORM}`);
      assert.deepEqual(policy!.spec, {
        podSelector: { matchLabels: { [LABELS.platform]: PLATFORM } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: BLOCKED } }] }],
      });
    });

    it('is idempotent and brings the policy up to date', async () => {
      await backend().init();
      await backend().init();
      await backend({ blockedCidrs: ['192.168.0.0/16'] }).init();
      assert.equal(fake.objects('namespaces').length, 1);
      assert.equal(fake.requestsTo('POST', /^\/api\/v1\/namespaces$/).length, 1);
      const policies = fake.objects('networkpolicies', NAMESPACE);
      assert.equal(policies.length, 1);
      assert.deepEqual(policies[0]!.spec.egress[0].to[0].ipBlock.except, ['192.168.0.0/16']);
    });

    it('without CONTAINER_REGISTRIES makes no pull secret and names none on pods', async () => {
      const kube = backend();
      await kube.init();
      await kube.create(containerSpec());
      assert.equal(fake.objects('secrets', NAMESPACE).length, 0);
      const [request] = fake.requestsTo('POST', /\/pods$/);
      assert.equal((request!.body as { spec: { imagePullSecrets?: unknown } }).spec.imagePullSecrets, undefined);
    });

    it('keeps the registries in one pull secret, kept up to date, that every pod names', async () => {
      const registries = [
        { host: 'registry.example.org', userName: 'ctf', password: 'p@ss:word' },
        { host: 'docker.io', userName: 'hub-user', password: 'hub-token' },
      ];
      await backend({ registries }).init();
      const rotated = [{ host: 'registry.example.org', userName: 'ctf', password: 'rotated' }];
      const kube = backend({ registries: rotated });
      await kube.init();
      const secrets = fake.objects('secrets', NAMESPACE);
      assert.equal(secrets.length, 1);
      const [secret] = secrets;
      assert.equal(secret!.metadata.name, `gzctf-registries-${PLATFORM}`);
      assert.equal(secret!.type, 'kubernetes.io/dockerconfigjson');
      const config = JSON.parse(Buffer.from(secret!.data!['.dockerconfigjson']!, 'base64').toString('utf8'));
      assert.deepEqual(config, {
        auths: {
          'registry.example.org': {
            username: 'ctf',
            password: 'rotated',
            auth: Buffer.from('ctf:rotated').toString('base64'),
          },
        },
      });

      await kube.create(containerSpec());
      const [request] = fake.requestsTo('POST', /\/pods$/);
      assert.deepEqual((request!.body as { spec: { imagePullSecrets?: unknown } }).spec.imagePullSecrets, [
        { name: `gzctf-registries-${PLATFORM}` },
      ]);
    });

    it('reports a missing kubeconfig, or no cluster, as an engine error', async () => {
      const missing = await engineFailure(
        backend({
          kubeConfig: undefined,
          settings: { namespace: NAMESPACE, kubeconfig: '/nonexistent/kube-config.yaml', dns: DNS },
        }).init(),
      );
      assert.match(missing, /kube-config\.yaml/);
      // Outside a pod there is no service-account token to fall back on (inside one, the in-cluster
      // account would be tried against a real API server, which this test must not do).
      if (!existsSync('/var/run/secrets/kubernetes.io/serviceaccount/token')) {
        assert.match(await engineFailure(backend({ kubeConfig: undefined }).init()), /KUBECONFIG is not set/);
      }
    });

    it('warns when the chosen name servers are in a blocked range', async () => {
      await backend({
        settings: { namespace: NAMESPACE, kubeconfig: undefined, dns: ['10.96.0.10', '1.1.1.1'] },
      }).init();
      assert.deepEqual(warnings, [
        'name servers 10.96.0.10 are in a blocked range: challenge pods will not resolve names',
      ]);
    });
  });

  describe('create', () => {
    beforeEach(async () => backend().init());

    it('starts a pod with no privileges, the limits, chosen DNS and only the given environment', async () => {
      const spec = containerSpec();
      const started = await backend().create(spec);
      const name = `gzctf-${spec.rowId}`;

      const [request] = fake.requestsTo('POST', /\/pods$/);
      // The request body as JSON, read field by field (see StoredObject in the fake for why untyped).
      const pod = request!.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      assert.equal(pod.metadata.name, name);
      assert.deepEqual(pod.metadata.labels, {
        [LABELS.platform]: PLATFORM,
        [LABELS.row]: spec.rowId,
        [LABELS.team]: '42',
        [LABELS.user]: spec.owner.user,
        [LABELS.challenge]: '7',
      });
      assert.equal(pod.spec.containers.length, 1);
      const [container] = pod.spec.containers;
      assert.equal(container.name, 'challenge');
      assert.equal(container.image, spec.image);
      assert.deepEqual(container.ports, [{ containerPort: 7001, protocol: 'TCP' }]);
      assert.deepEqual(container.env, [
        { name: 'GZCTF_FLAG', value: 'flag{k8s}' },
        { name: 'GZCTF_TEAM_ID', value: '42' },
      ]);
      assert.equal(container.envFrom, undefined);
      assert.deepEqual(container.resources, {
        limits: { cpu: '200m', memory: '64Mi', 'ephemeral-storage': '256Mi' },
        requests: { cpu: '10m', memory: '32Mi' },
      });
      assert.equal(container.securityContext.privileged, false);
      assert.equal(container.securityContext.allowPrivilegeEscalation, false);
      assert.deepEqual(container.securityContext.capabilities, { drop: ['ALL'], add: [...KEPT_CAPABILITIES] });
      assert.deepEqual(container.securityContext.seccompProfile, { type: 'RuntimeDefault' });
      assert.equal(container.volumeMounts, undefined);
      assert.equal(pod.spec.automountServiceAccountToken, false);
      assert.equal(pod.spec.enableServiceLinks, false);
      assert.equal(pod.spec.restartPolicy, 'Never');
      assert.equal(pod.spec.dnsPolicy, 'None');
      assert.deepEqual(pod.spec.dnsConfig, { nameservers: DNS });
      assert.equal(pod.spec.hostNetwork, false);
      assert.equal(pod.spec.hostPID, false);
      assert.equal(pod.spec.hostIPC, false);
      assert.equal(pod.spec.volumes, undefined);

      const service = fake.object('services', NAMESPACE, name)!;
      assert.equal(service.spec.type, 'ClusterIP');
      assert.deepEqual(service.spec.selector, { [LABELS.row]: spec.rowId });
      assert.deepEqual(service.metadata.labels, pod.metadata.labels);
      assert.equal(service.spec.ports[0].port, 7001);
      assert.equal(service.spec.ports[0].targetPort, 7001);
      assert.equal(service.spec.ports[0].nodePort, undefined);

      assert.deepEqual(started, {
        containerId: name,
        ip: service.spec.clusterIP,
        port: 7001,
        publicIp: null,
        publicPort: null,
      });
      assert.equal(fake.object('pods', NAMESPACE, name)!.status.phase, 'Running');
    });

    it('publishes through a NodePort shown at the public entry', async () => {
      const spec = containerSpec({ publish: true });
      const started = await backend().create(spec);
      const service = fake.object('services', NAMESPACE, started.containerId)!;
      assert.equal(service.spec.type, 'NodePort');
      const nodePort = service.spec.ports[0].nodePort as number;
      assert.ok(nodePort >= 30000 && nodePort <= 32767);
      assert.equal(started.publicIp, 'ctf.example.org');
      assert.equal(started.publicPort, nodePort);
      assert.equal(started.ip, service.spec.clusterIP);
    });

    it('turns owners into valid label values', async () => {
      const spec = containerSpec({ owner: { team: 'admin', user: '-weird user@name-', challenge: 'x'.repeat(80) } });
      const started = await backend().create(spec);
      const labels = fake.object('pods', NAMESPACE, started.containerId)!.metadata.labels!;
      assert.equal(labels[LABELS.team], 'admin');
      assert.equal(labels[LABELS.user], 'weird_user_name');
      assert.equal(labels[LABELS.challenge], 'x'.repeat(63));
      assert.equal(labelValue('__'), '');
    });

    const failures: ImageFailure[] = [
      'ErrImagePull',
      'ImagePullBackOff',
      'InvalidImageName',
      'CreateContainerConfigError',
      'Crash',
    ];
    for (const failure of failures) {
      it(`fails cleanly and leaves nothing behind when the pod cannot run (${failure})`, async () => {
        const spec = containerSpec({ image: `registry.example.org/missing-${failure.toLowerCase()}:1` });
        fake.failImage(spec.image, failure);
        const message = await engineFailure(backend().create(spec));
        assert.match(message, new RegExp(spec.image.replace(/[.]/g, '\\.')));
        assert.match(message, failure === 'Crash' ? /stopped at once \(exit code 1/ : new RegExp(failure));
        assert.deepEqual(fake.objects('pods', NAMESPACE), []);
        assert.deepEqual(fake.objects('services', NAMESPACE), []);
      });
    }

    it('gives up on a pod that never runs, says why, and removes it', async () => {
      const spec = containerSpec({ image: 'registry.example.org/huge:1' });
      fake.failImage(spec.image, 'NeverStarts');
      const message = await engineFailure(backend({ startTimeoutMs: 50 }).create(spec));
      assert.match(message, /did not run within/);
      assert.match(message, /Insufficient cpu/);
      assert.deepEqual(fake.objects('pods', NAMESPACE), []);
      assert.deepEqual(fake.objects('services', NAMESPACE), []);
    });

    it('removes the pod when the service is refused', async () => {
      fake.interceptNext('POST', SERVICES, { code: 403, reason: 'Forbidden', message: 'services is forbidden' });
      const message = await engineFailure(backend().create(containerSpec()));
      assert.match(message, /services is forbidden/);
      assert.deepEqual(fake.objects('pods', NAMESPACE), []);
      assert.equal(fake.requestsTo('DELETE', PODS).length, 1);
    });

    it('passes the API server refusal on', async () => {
      const message = await engineFailure(
        backend({ settings: { namespace: NAMESPACE, kubeconfig: undefined, dns: [] } }).create(containerSpec()),
      );
      assert.match(message, /dnsConfig\.nameservers/);
      assert.deepEqual(fake.objects('pods', NAMESPACE), []);
    });
  });

  describe('destroy and list', () => {
    beforeEach(async () => backend().init());

    it('deletes the pod and the service, and a second destroy is fine', async () => {
      const { containerId } = await backend().create(containerSpec({ publish: true }));
      await backend().destroy(containerId);
      assert.deepEqual(fake.objects('pods', NAMESPACE), []);
      assert.deepEqual(fake.objects('services', NAMESPACE), []);
      await backend().destroy(containerId);
      await backend().destroy(`gzctf-${randomUUID()}`);
      assert.equal(fake.requestsTo('DELETE', new RegExp(`/pods/${containerId}$`)).length, 2);
      assert.equal(fake.requestsTo('DELETE', new RegExp(`/services/${containerId}$`)).length, 2);
    });

    it('lists only this platform’s pods', async () => {
      const mine = [containerSpec(), containerSpec({ publish: true })];
      for (const spec of mine) await backend().create(spec);
      const other = createKubernetesBackend({
        platformId: randomUUID(),
        publicEntry: 'other.example.org',
        blockedCidrs: [],
        log: { info: () => {}, warn: () => {} },
        settings: { namespace: NAMESPACE, kubeconfig: undefined, dns: DNS },
        kubeConfig: fake.kubeConfig(),
        pollMs: 5,
      });
      const theirs = await other.create(containerSpec());

      const listed = await backend().list();
      assert.deepEqual(
        listed.sort((a, b) => a.containerId.localeCompare(b.containerId)),
        mine
          .map((spec) => ({ containerId: `gzctf-${spec.rowId}`, rowId: spec.rowId, running: true }))
          .sort((a, b) => a.containerId.localeCompare(b.containerId)),
      );
      const [query] = fake.requestsTo('GET', /\/pods$/).map((request) => request.query);
      assert.equal(query!.labelSelector, `${LABELS.platform}=${PLATFORM}`);
      assert.deepEqual(
        (await other.list()).map((entry) => entry.containerId),
        [theirs.containerId],
      );
    });
  });

  describe('engine errors', () => {
    it('carry the API server’s message and never the credentials', async () => {
      fake.interceptNext('GET', PODS, { code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' });
      const message = await engineFailure(backend().list());
      assert.match(message, /etcdserver: request timed out/);
      assert.ok(!message.includes(fake.token));

      const config = fake.kubeConfig();
      config.users[0] = { ...config.users[0]!, token: 'wrong-secret-token' };
      const refused = await engineFailure(backend({ kubeConfig: config }).init());
      assert.match(refused, /nauthorized/);
      assert.ok(!refused.includes('wrong-secret-token'));
    });

    it('end a request the API server never answers', async () => {
      fake.interceptNext('GET', PODS, 'stall');
      const message = await engineFailure(backend({ requestTimeoutMs: 100 }).list());
      assert.match(message, /did not answer in time/);
    });
  });
});

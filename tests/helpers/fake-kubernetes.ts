import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import {
  ApiError,
  DNS_LABEL,
  invalid,
  KINDS,
  LABEL_VALUE,
  matches,
  status,
  type ImageFailure,
  type Intercept,
  type RecordedRequest,
  type Resource,
  type StoredObject,
} from './fake-kubernetes-api';

export type { ImageFailure } from './fake-kubernetes-api';

/**
 * A stand-in Kubernetes API server for the backend tests: real HTTP on 127.0.0.1, so requests go
 * through @kubernetes/client-node exactly as in production. It keeps namespaces, pods, services,
 * secrets and network policies in memory, answers with the API's object and Status shapes, validates the few
 * fields a real server would refuse, and plays the kubelet: a pod runs with an IP a moment after
 * creation, unless its image was told to fail.
 */

export class FakeKubernetes {
  readonly requests: RecordedRequest[] = [];
  /** The bearer token the client sends; tests check it never shows in an error. */
  readonly token = `fake-token-${randomUUID()}`;
  /** How long after creation the kubelet "starts" a pod. */
  startDelayMs = 20;
  private readonly store = new Map<Resource, Map<string, StoredObject>>();
  private readonly failures = new Map<string, ImageFailure>();
  private readonly intercepts: Intercept[] = [];
  private readonly createdAt = new Map<string, number>();
  private version = 1;
  private addresses = 1;
  private nextNodePort = 30000;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeKubernetes> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fake = new FakeKubernetes(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => void fake.handle(req, res));
    return fake;
  }

  /** A client configuration for this server: plain http, a bearer token. */
  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'fake', server: this.url, skipTLSVerify: true }],
      users: [{ name: 'fake', token: this.token }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'fake' }],
      currentContext: 'fake',
    });
    return config;
  }

  failImage(image: string, failure: ImageFailure = 'ErrImagePull'): void {
    this.failures.set(image, failure);
  }

  /** Answers the next matching request with this error, or never (`stall`). */
  interceptNext(method: string, path: RegExp, reply: Intercept['reply']): void {
    this.intercepts.push({ method, path, reply });
  }

  objects(resource: Resource, namespace?: string): StoredObject[] {
    return [...this.bucket(resource).values()].filter(
      (object) => namespace === undefined || object.metadata.namespace === namespace,
    );
  }

  object(resource: Resource, namespace: string, name: string): StoredObject | undefined {
    return this.bucket(resource).get(`${namespace}/${name}`);
  }

  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private bucket(resource: Resource): Map<string, StoredObject> {
    let bucket = this.store.get(resource);
    if (!bucket) this.store.set(resource, (bucket = new Map()));
    return bucket;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.url);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });

    const send = (code: number, payload: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const intercept = this.intercepts.findIndex((i) => i.method === method && i.path.test(url.pathname));
    if (intercept >= 0) {
      const [{ reply }] = this.intercepts.splice(intercept, 1) as [Intercept];
      if (reply === 'stall') return;
      send(reply.code, status(reply.code, reply.reason, reply.message));
      return;
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      send(401, status(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    try {
      const [code, payload] = this.route(method, url, body);
      send(code, payload);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      send(error.code, status(error.code, error.reason, error.message, error.details));
    }
  }

  private route(method: string, url: URL, body: unknown): [number, unknown] {
    const path = url.pathname;
    const namespaces = /^\/api\/v1\/namespaces(?:\/([^/]+))?$/.exec(path);
    if (namespaces) return this.serve('namespaces', undefined, namespaces[1], method, url, body);
    const core = /^\/api\/v1\/namespaces\/([^/]+)\/(pods|services|secrets)(?:\/([^/]+))?$/.exec(path);
    if (core) return this.serve(core[2] as Resource, core[1], core[3], method, url, body);
    const policies = /^\/apis\/networking\.k8s\.io\/v1\/namespaces\/([^/]+)\/networkpolicies(?:\/([^/]+))?$/.exec(path);
    if (policies) return this.serve('networkpolicies', policies[1], policies[2], method, url, body);
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }

  private serve(
    resource: Resource,
    namespace: string | undefined,
    name: string | undefined,
    method: string,
    url: URL,
    body: unknown,
  ): [number, unknown] {
    const bucket = this.bucket(resource);
    const key = (objectName: string) => (namespace ? `${namespace}/${objectName}` : objectName);
    const notFound = (objectName: string) =>
      new ApiError(404, 'NotFound', `${resource} "${objectName}" not found`, { name: objectName, kind: resource });
    const existing = name ? bucket.get(key(name)) : undefined;

    if (name === undefined && method === 'GET') {
      const selector = url.searchParams.get('labelSelector') ?? '';
      const items = this.objects(resource, namespace).filter((object) => matches(selector, object.metadata.labels));
      const { kind, apiVersion } = KINDS[resource];
      return [
        200,
        {
          kind: `${kind}List`,
          apiVersion,
          metadata: { resourceVersion: String(this.version) },
          items: items.map(this.view),
        },
      ];
    }
    if (name === undefined && method === 'POST') {
      const object = this.admit(resource, namespace, body);
      if (bucket.has(key(object.metadata.name))) {
        throw new ApiError(409, 'AlreadyExists', `${resource} "${object.metadata.name}" already exists`, {
          name: object.metadata.name,
          kind: resource,
        });
      }
      bucket.set(key(object.metadata.name), object);
      this.createdAt.set(`${resource}:${key(object.metadata.name)}`, Date.now());
      return [201, this.view(object)];
    }
    if (name === undefined) throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method');
    if (!existing) throw notFound(name);
    if (method === 'GET') return [200, this.view(existing)];
    if (method === 'DELETE') {
      bucket.delete(key(name));
      return [200, this.view(existing)];
    }
    if (method === 'PUT') {
      const object = this.admit(resource, namespace, body);
      if (object.metadata.name !== name) throw invalid(resource, name, 'metadata.name', 'does not match the URL');
      object.metadata.uid = existing.metadata.uid;
      object.metadata.creationTimestamp = existing.metadata.creationTimestamp;
      bucket.set(key(name), object);
      return [200, this.view(object)];
    }
    throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method');
  }

  /** Validation and defaulting a real API server does for these fields. */
  private admit(resource: Resource, namespace: string | undefined, body: unknown): StoredObject {
    const { kind, apiVersion } = KINDS[resource];
    const object = structuredClone(body) as StoredObject;
    const name = object?.metadata?.name;
    if (typeof name !== 'string' || !DNS_LABEL.test(name)) {
      throw invalid(resource, String(name), 'metadata.name', 'must be a lowercase RFC 1123 label');
    }
    if (resource === 'services' && !/^[a-z]/.test(name)) {
      throw invalid(resource, name, 'metadata.name', 'must start with a letter (RFC 1035)');
    }
    for (const [label, value] of Object.entries(object.metadata.labels ?? {})) {
      if (value.length > 63 || !LABEL_VALUE.test(value)) {
        throw invalid(resource, name, `metadata.labels.${label}`, `Invalid value: "${value}"`);
      }
    }
    if (namespace !== undefined && !this.bucket('namespaces').has(namespace)) {
      throw new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, {
        name: namespace,
        kind: 'namespaces',
      });
    }
    if (resource === 'pods') this.admitPod(name, object);
    if (resource === 'services') this.admitService(object);
    object.apiVersion = apiVersion;
    object.kind = kind;
    object.metadata = {
      ...object.metadata,
      ...(namespace ? { namespace } : {}),
      uid: randomUUID(),
      resourceVersion: String(++this.version),
      creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    if (resource === 'namespaces') object.status = { phase: 'Active' };
    return object;
  }

  private admitPod(name: string, pod: StoredObject): void {
    if (!Array.isArray(pod.spec?.containers) || pod.spec.containers.length === 0) {
      throw invalid('pods', name, 'spec.containers', 'Required value');
    }
    if (pod.spec.dnsPolicy === 'None') {
      const servers: unknown[] = pod.spec.dnsConfig?.nameservers ?? [];
      if (servers.length === 0 || servers.length > 3) {
        throw invalid('pods', name, 'spec.dnsConfig.nameservers', 'must hold 1 to 3 servers when dnsPolicy is None');
      }
    }
    pod.status = { phase: 'Pending', qosClass: 'Burstable' };
  }

  private admitService(service: StoredObject): void {
    const spec = (service.spec ??= {});
    spec.type ??= 'ClusterIP';
    spec.clusterIP = `10.96.0.${this.addresses++}`;
    spec.clusterIPs = [spec.clusterIP];
    for (const port of spec.ports ?? []) {
      port.targetPort ??= port.port;
      if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') port.nodePort ??= this.nextNodePort++;
    }
    service.status = { loadBalancer: {} };
  }

  /** Pods as the kubelet would have them by now. */
  private readonly view = (object: StoredObject): StoredObject => {
    if (object.kind !== 'Pod') return object;
    const key = `pods:${object.metadata.namespace}/${object.metadata.name}`;
    const started = Date.now() - (this.createdAt.get(key) ?? 0) >= this.startDelayMs;
    if (started && object.status.phase === 'Pending') object.status = this.kubelet(object);
    return object;
  };

  private kubelet(pod: StoredObject): StoredObject['status'] {
    const container = pod.spec.containers[0] as { name: string; image: string };
    const failure = this.failures.get(container.image);
    const base = { name: container.name, image: container.image, imageID: '', restartCount: 0, ready: false };
    if (failure === 'NeverStarts') {
      return {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/1 nodes are available: 1 Insufficient cpu.',
          },
        ],
      };
    }
    const scheduled = { hostIP: '192.0.2.10', startTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
    if (failure === 'Crash') {
      return {
        ...scheduled,
        phase: 'Failed',
        containerStatuses: [{ ...base, state: { terminated: { exitCode: 1, reason: 'Error' } } }],
      };
    }
    if (failure) {
      const message = `failed to pull and unpack image "${container.image}": not found`;
      return {
        ...scheduled,
        phase: 'Pending',
        containerStatuses: [{ ...base, state: { waiting: { reason: failure, message } } }],
      };
    }
    const podIP = `10.244.0.${this.addresses++}`;
    return {
      ...scheduled,
      phase: 'Running',
      podIP,
      podIPs: [{ ip: podIP }],
      containerStatuses: [
        { ...base, ready: true, started: true, state: { running: { startedAt: scheduled.startTime } } },
      ],
    };
  }
}

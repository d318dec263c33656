/**
 * The Kubernetes API's shapes and rules as the fake API server (fake-kubernetes.ts) answers them:
 * object and Status bodies, name and label validation, label selectors.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** How a pod of a failing image ends up; the first four are container waiting reasons. */
export type ImageFailure =
  | 'ErrImagePull'
  | 'ImagePullBackOff'
  | 'InvalidImageName'
  | 'CreateContainerConfigError'
  /** The process exits at once: phase Failed. */
  | 'Crash'
  /** Never scheduled: Pending forever. */
  | 'NeverStarts';

interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  [key: string]: unknown;
}

/** Objects as JSON: what tests read back is what the API would show. */
export interface StoredObject {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  // Untyped on purpose: parsed JSON of any of five kinds, read field by field by the tests (the
  // client library's models type dates as Date and every field as optional, which JSON is not).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  /** A secret's kind of content and its values (base64). */
  type?: string;
  data?: Record<string, string>;
}

export type Resource = 'namespaces' | 'pods' | 'services' | 'secrets' | 'networkpolicies';
export const KINDS: Record<Resource, { kind: string; apiVersion: string }> = {
  namespaces: { kind: 'Namespace', apiVersion: 'v1' },
  pods: { kind: 'Pod', apiVersion: 'v1' },
  services: { kind: 'Service', apiVersion: 'v1' },
  secrets: { kind: 'Secret', apiVersion: 'v1' },
  networkpolicies: { kind: 'NetworkPolicy', apiVersion: 'networking.k8s.io/v1' },
};
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: object,
  ) {
    super(message);
  }
}

export interface Intercept {
  method: string;
  path: RegExp;
  reply: { code: number; reason: string; message: string } | 'stall';
}

export function status(code: number, reason: string, message: string, details?: object) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

export function invalid(resource: Resource, name: string, field: string, problem: string): ApiError {
  const kind = KINDS[resource].kind;
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${field}: ${problem}`, {
    name,
    kind,
    causes: [{ reason: 'FieldValueInvalid', message: problem, field }],
  });
}

/** Equality-based selectors (`a=b`, `a==b`, `a!=b`, `a`, `!a`), comma meaning AND. */
export function matches(selector: string, labels: Record<string, string> = {}): boolean {
  return selector
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean)
    .every((term) => {
      const unequal = /^([^!=]+)!=(.*)$/.exec(term);
      if (unequal) return labels[unequal[1]!] !== unequal[2];
      const equal = /^([^!=]+)==?(.*)$/.exec(term);
      if (equal) return labels[equal[1]!] === equal[2];
      if (term.startsWith('!')) return !(term.slice(1) in labels);
      return term in labels;
    });
}

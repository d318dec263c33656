import type { V1NetworkPolicy, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import { BlockList, isIPv4 } from 'node:net';
import type { RegistryCredentials } from '../../env';
import { KEPT_CAPABILITIES, LABELS, type ContainerSpec } from './backend';
import { dockerConfigJson } from './registries';

/**
 * The Kubernetes objects of one challenge container, as the backend creates them: the pod, its
 * service, and the platform's egress policy; names and labels the API accepts.
 */

/** The pod and its service share the name; a UUID keeps it a valid RFC 1035 label (≤ 63, starts with a letter). */
export function resourceName(rowId: string): string {
  return `gzctf-${rowId.toLowerCase()}`;
}

/** Label values: at most 63 of `[A-Za-z0-9._-]`, starting and ending with a letter or digit. */
export function labelValue(value: string): string {
  return value
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(0, 63)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

export function labelsOf(spec: ContainerSpec, platform: string): Record<string, string> {
  return {
    [LABELS.platform]: platform,
    [LABELS.row]: labelValue(spec.rowId),
    [LABELS.team]: labelValue(spec.owner.team),
    [LABELS.user]: labelValue(spec.owner.user),
    [LABELS.challenge]: labelValue(spec.owner.challenge),
  };
}

/**
 * `pullSecret`: the platform's registry secret (`pullSecretOf`), when CONTAINER_REGISTRIES names
 * any registry: the kubelet picks the credentials of the image's registry from it.
 */
export function podOf(
  name: string,
  labels: Record<string, string>,
  spec: ContainerSpec,
  dns: string[],
  pullSecret?: string,
): V1Pod {
  const cpuMilli = spec.cpuCount * 100;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: {
      containers: [
        {
          name: 'challenge',
          image: spec.image,
          ports: [{ containerPort: spec.port, protocol: 'TCP' }],
          env: Object.entries(spec.env).map(([key, value]) => ({ name: key, value })),
          // Kubernetes has no per-pod process limit: the kubelet's podPidsLimit applies to every pod,
          // so spec.pidsLimit is not used here.
          resources: {
            limits: { cpu: `${cpuMilli}m`, memory: `${spec.memoryMb}Mi`, 'ephemeral-storage': `${spec.storageMb}Mi` },
            // A request above its limit is refused, so tiny limits pull the requests down with them.
            requests: { cpu: `${Math.min(10, cpuMilli)}m`, memory: `${Math.min(32, spec.memoryMb)}Mi` },
          },
          securityContext: {
            privileged: false,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'], add: [...KEPT_CAPABILITIES] },
            // Kubernetes runs containers unconfined unless asked; Docker applies this profile by default.
            seccompProfile: { type: 'RuntimeDefault' },
          },
        },
      ],
      ...(pullSecret ? { imagePullSecrets: [{ name: pullSecret }] } : {}),
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      restartPolicy: 'Never',
      // Cluster DNS sits in a blocked range and would reveal the cluster's services anyway.
      dnsPolicy: 'None',
      dnsConfig: { nameservers: dns },
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
    },
  };
}

export function serviceOf(name: string, labels: Record<string, string>, spec: ContainerSpec): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels },
    spec: {
      type: spec.publish ? 'NodePort' : 'ClusterIP',
      selector: { [LABELS.row]: labels[LABELS.row]! },
      ports: [{ name: 'challenge', protocol: 'TCP', port: spec.port, targetPort: spec.port }],
    },
  };
}

/** One policy per platform, so platforms sharing a namespace never replace each other's. */
export const policyName = (platform: string) => `gzctf-policy-${platform}`;

export const pullSecretName = (platform: string) => `gzctf-registries-${platform}`;

/** The image pull secret holding every CONTAINER_REGISTRIES credential (GZCTF creates one at start too). */
export function pullSecretOf(platform: string, registries: RegistryCredentials[]): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/dockerconfigjson',
    metadata: { name: pullSecretName(platform), labels: { [LABELS.platform]: platform } },
    data: { '.dockerconfigjson': Buffer.from(dockerConfigJson(registries)).toString('base64') },
  };
}

export function egressPolicy(platform: string, blockedCidrs: string[]): V1NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: policyName(platform), labels: { [LABELS.platform]: platform } },
    spec: {
      podSelector: { matchLabels: { [LABELS.platform]: platform } },
      policyTypes: ['Egress'],
      // IPv4 only: with an Egress policy, IPv6 destinations are not allowed at all.
      egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: [...blockedCidrs] } }] }],
    },
  };
}

export function blockedServers(servers: string[], blockedCidrs: string[]): string[] {
  const blocked = new BlockList();
  for (const cidr of blockedCidrs) {
    const [base, prefix] = cidr.split('/');
    blocked.addSubnet(base!, Number(prefix), 'ipv4');
  }
  return servers.filter((server) => isIPv4(server) && blocked.check(server, 'ipv4'));
}

import type { components } from '../../contract/api.generated';
import type { ContainerRow } from './instances.repository';

export type ContainerInfoModel = components['schemas']['ContainerInfoModel'];

/**
 * Where players connect (reference §5.9): the published host and port, the container's own address
 * when nothing is published, or with the platform proxy the container's id (the proxy's credential).
 */
export function containerEntry(container: ContainerRow): string {
  if (container.isProxy) return container.id;
  return `${container.publicIp ?? container.ip}:${container.publicPort ?? container.port}`;
}

export function toContainerInfo(container: ContainerRow): ContainerInfoModel {
  return {
    status: container.status,
    startedAt: container.startedAt.getTime(),
    expectStopAt: container.expectStopAt.getTime(),
    entry: containerEntry(container),
  };
}

// The instances module's public surface: the plugin (service, proxy, sweeps), the container rows other
// modules show, the installation id, a challenge as a team sees it, the handlers of its routes, a
// challenge's links to every participation on enabling (and an accepted team's to every challenge),
// and deleting the test containers of what an admin deletes.
export { default as instancesPlugin, type InstancesOptions } from './instances.plugin';
export { toContainerInfo } from './container-info';
export { findContainer, installationId, playerContainerIds } from './instances.repository';
export { ensureInstancesForChallenge, ensureInstancesForParticipation } from './challenge-instances.repository';
export { deleteTestContainers } from './test-containers.repository';
export { challengeDetail } from './team-instance.service';
export { capturesHandlers } from './captures.routes';
export { instancesHandlers } from './instances.routes';
export { proxyHandlers, proxyOtherMethods, proxyRouteOptions } from './proxy.routes';

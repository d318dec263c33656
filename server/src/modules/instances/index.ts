// The instances module's public surface: the plugin (service, proxy, sweeps), the container rows other
// modules show, the installation id, and the handlers of its routes.
export { default as instancesPlugin, type InstancesOptions } from './instances.plugin';
export { toContainerInfo } from './container-info';
export { findContainer, installationId } from './instances.repository';
export { capturesHandlers } from './captures.routes';
export { instancesHandlers } from './instances.routes';
export { proxyHandlers, proxyOtherMethods, proxyRouteOptions } from './proxy.routes';

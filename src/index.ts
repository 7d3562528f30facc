// The package's public entry point: the three programs as library calls, and the types their
// options and handles use. `import { startServer, startControllerManager, startControlPlane } from
// 'platform-apiserver'` from another Node project reaches these; deeper modules are internal.

export type { ControlPlaneHandle, ControlPlaneOptions } from './cmd/control-plane.ts';
export { startControlPlane } from './cmd/control-plane.ts';
export type { PlatControllerManagerConfiguration } from './controllers/manager/config/index.ts';
export {
  ConfigurationError,
  decodePlatControllerManagerConfiguration,
  defaultPlatControllerManagerConfiguration,
} from './controllers/manager/config/index.ts';
export type {
  ControllerManagerHandle,
  ControllerManagerOptions,
} from './controllers/manager/controller-manager.ts';
export { startControllerManager } from './controllers/manager/controller-manager.ts';
export * from './nodeagent/index.ts';
export type { ServerOptions } from './server/options.ts';
export type { ServerHandle } from './server/server.ts';
export { startServer } from './server/server.ts';

/** The local HTTP API server: spec routes over the API services; the UI bridge plugs in via `extraRoutes`. */
export { createHttpServer, type HttpServerOptions, type ServerTimeouts } from './server';
export { serverUrl, isLoopbackHost } from './address';

// Server: request info parsing now; listeners, the filter chain, handlers, discovery, OpenAPI and
// health as they arrive. The top layer: may import everything below it.

export * from './request-info.ts';

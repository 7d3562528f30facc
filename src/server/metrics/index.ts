// The API server's Prometheus metrics: a registry per server instance (registry.ts) with the
// request metrics under kube-apiserver's names, labels and buckets, their per-request recording
// (request-metrics.ts, called where a request starts and where its response closes), and the
// `/metrics` endpoint that renders them (route.ts).

export { type ApiServerMetrics, createApiServerMetrics } from './registry.ts';
export { Kind, metricDryRun, metricScope, metricVerb, RequestMetrics } from './request-metrics.ts';
export { serveMetrics } from './route.ts';

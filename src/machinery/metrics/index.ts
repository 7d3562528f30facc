// Metrics machinery shared by every component: a registry per component that applies upstream's
// stability classes (help prefixes, deprecation notes, hidden metrics) as metrics are defined.
// Imports prom-client only.

export * from './fast-metrics.ts';
export * from './registry.ts';
export * from './stability.ts';

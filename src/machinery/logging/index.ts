// Structured logs as upstream's programs write them (klog text or component-base JSON, -v levels):
// the logger, the process-wide configuration and its test capture, and the API server's request
// and failure lines.

export { encodeJson, encodeText, goDuration, type LogRecord, quote, type Severity } from './encode.ts';
export * from './httplog.ts';
export * from './logger.ts';

// The event recorder, as client-go's tools/record: controllers record core v1 Events about the
// objects they act on without waiting for the API; identical events are counted on one Event,
// floods are rate limited. fake-recorder.ts keeps events in memory for tests. Imports api.ts,
// work-queue/'s clock and machinery/ only.

export * from './correlator.ts';
export * from './event.ts';
export * from './fake-recorder.ts';
export * from './recorder.ts';

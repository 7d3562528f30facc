// The events group (`events.<domain>/v1`): Event in its newer shape, stored as core/v1 Events.
// Imports machinery/, naming/, schema/, registry/ and the core group's Event pieces.

export { eventFromCore, eventToCore } from './conversion.ts';
export { eventsEventKind } from './event.ts';

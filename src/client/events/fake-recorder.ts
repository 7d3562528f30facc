// A recorder that keeps events in memory, for controllers' tests that assert what was recorded.

import type { ApiObject } from '../../machinery/object.ts';
import type { EventType } from './event.ts';
import type { EventRecorder } from './recorder.ts';

export interface RecordedEvent {
  type: EventType;
  reason: string;
  message: string;
  object: ApiObject;
  fieldPath?: string;
}

export class FakeEventRecorder implements EventRecorder {
  readonly events: RecordedEvent[] = [];

  event(object: ApiObject, type: EventType, reason: string, message: string, fieldPath?: string): void {
    this.events.push(
      fieldPath === undefined
        ? { type, reason, message, object }
        : { type, reason, message, object, fieldPath },
    );
  }

  /** The reasons recorded so far, in order. */
  reasons(): string[] {
    return this.events.map((e) => e.reason);
  }
}

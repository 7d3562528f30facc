// Typed storage failures. The registry turns each into a Status object (NotFound 404, AlreadyExists
// 409, Conflict 409, Expired 410, Timeout 504, ...); storage itself knows nothing of HTTP.

import type { Revision } from './interface.ts';

export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'ResourceVersionConflict'
  | 'InvalidObject'
  | 'CorruptObject'
  | 'Compacted'
  | 'TooLargeResourceVersion'
  | 'InvalidContinue'
  | 'Unavailable';

export class StorageError extends Error {
  override name = 'StorageError';
  readonly code: StorageErrorCode;
  readonly key: string;

  constructor(code: StorageErrorCode, key: string, message: string) {
    super(message);
    this.code = code;
    this.key = key;
  }
}

export class KeyNotFoundError extends StorageError {
  constructor(key: string) {
    super('KeyNotFound', key, `key not found: ${key}`);
  }
}

export class KeyExistsError extends StorageError {
  constructor(key: string) {
    super('KeyExists', key, `key exists: ${key}`);
  }
}

/** A precondition (uid or resourceVersion) did not hold against the stored object. */
export class ResourceVersionConflictError extends StorageError {
  constructor(key: string, detail: string) {
    super('ResourceVersionConflict', key, detail);
  }
}

/** The stored bytes or the object handed in cannot be used (bad JSON, missing metadata). */
export class InvalidObjectError extends StorageError {
  constructor(key: string, detail: string) {
    super('InvalidObject', key, detail);
  }
}

/** The stored bytes of a key cannot be decoded: only an unsafe delete can remove them. */
export class CorruptObjectError extends StorageError {
  constructor(key: string, detail: string) {
    super('CorruptObject', key, detail);
  }
}

/** The requested revision was compacted away. */
export class CompactedError extends StorageError {
  readonly requested: Revision;
  readonly compactRevision: Revision;
  /** True when the revision came from a continue token (the message to users differs). */
  readonly fromContinue: boolean;

  constructor(key: string, requested: Revision, compactRevision: Revision, fromContinue = false) {
    super(
      'Compacted',
      key,
      `required revision ${requested} has been compacted (compacted through ${compactRevision})`,
    );
    this.requested = requested;
    this.compactRevision = compactRevision;
    this.fromContinue = fromContinue;
  }
}

/** The requested revision is newer than anything the store has reached in time. */
export class TooLargeResourceVersionError extends StorageError {
  readonly requested: Revision;
  readonly current: Revision;
  readonly retryAfterSeconds: number;

  constructor(key: string, requested: Revision, current: Revision, retryAfterSeconds = 1) {
    super('TooLargeResourceVersion', key, `Too large resource version: ${requested}, current: ${current}`);
    this.requested = requested;
    this.current = current;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class InvalidContinueError extends StorageError {
  constructor(detail: string) {
    super('InvalidContinue', '', detail);
  }
}

export class UnavailableError extends StorageError {
  constructor(detail: string) {
    super('Unavailable', '', detail);
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

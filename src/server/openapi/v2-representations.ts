// The bytes /openapi/v2 answers with, made once per document and kept beside it: the JSON, the
// protobuf (made on its first request), each gzipped on its first request, and the validators both
// share. As upstream's handler (k8s.io/kube-openapi pkg/handler) derives them, the ETag is the SHA-512
// of the JSON in upper-case hex, quoted, and stands for the protobuf too (the answer varies by
// Accept); Last-Modified is when the JSON was made.

import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { encodeOpenApiV2 } from './openapi-v2-protobuf.ts';

const gzipAsync = promisify(gzip);

export interface OpenApiV2Body {
  bytes: Buffer;
  /** Gzipped at zlib's default level, as upstream's gzip handler compresses; made once. */
  gzipped(): Promise<Buffer>;
}

export interface OpenApiV2Representations {
  /** Quoted, as it goes into the ETag header. */
  etag: string;
  /** An HTTP date, whole seconds. */
  lastModified: string;
  json: OpenApiV2Body;
  protobuf(): OpenApiV2Body;
}

function body(bytes: Buffer): OpenApiV2Body {
  let zipped: Promise<Buffer> | undefined;
  return {
    bytes,
    gzipped: () => {
      zipped ??= gzipAsync(bytes);
      return zipped;
    },
  };
}

const made = new WeakMap<object, OpenApiV2Representations>();

/** The representations of `doc`; the same object for the same document. */
export function openApiV2Representations(doc: object): OpenApiV2Representations {
  const known = made.get(doc);
  if (known !== undefined) return known;
  // No trailing newline: upstream sends json.Marshal's bytes as they are.
  const json = Buffer.from(JSON.stringify(doc));
  let protobuf: OpenApiV2Body | undefined;
  const reps: OpenApiV2Representations = {
    etag: `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`,
    lastModified: new Date().toUTCString(),
    json: body(json),
    protobuf: () => {
      protobuf ??= body(encodeOpenApiV2(doc));
      return protobuf;
    },
  };
  made.set(doc, reps);
  return reps;
}

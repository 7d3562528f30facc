// The YAML decoder's own thread. Decoding a large YAML body (the depth check, the yaml package's
// parseDocument and toJS, the repeated-key scan) is seconds of synchronous work for a 3 MiB body;
// done here, it holds this thread instead of the server's event loop. It decodes with the very
// serializer the synchronous path uses, so values, repeated-key lines and error messages cannot
// drift apart; an error travels back as its class and message for yaml-offload.ts to rebuild.
// This file is an entry point of its own (scripts/bundle.mjs bundles it beside the programs).

import { parentPort } from 'node:worker_threads';
import { DecodeError, YAML_SERIALIZER } from './serializers.ts';

/** One body to decode; `checked` asks for the repeated-key lines too (decodeChecked). */
export interface YamlDecodeRequest {
  id: number;
  body: string;
  checked: boolean;
}

/** What the decode threw: DecodeError, a built-in error class by name, or anything else. */
export interface YamlDecodeFailure {
  decodeError: boolean;
  name: string;
  message: string;
}

export type YamlDecodeReply =
  | { id: number; value: unknown; lines?: string[] }
  | { id: number; failure: YamlDecodeFailure };

function failureOf(err: unknown): YamlDecodeFailure {
  if (err instanceof DecodeError) return { decodeError: true, name: err.name, message: err.message };
  if (err instanceof Error) return { decodeError: false, name: err.name, message: err.message };
  return { decodeError: false, name: 'Error', message: String(err) };
}

function decode(req: YamlDecodeRequest): YamlDecodeReply {
  try {
    if (!req.checked) return { id: req.id, value: YAML_SERIALIZER.decode(req.body) };
    const { value, duplicates } = YAML_SERIALIZER.decodeChecked(req.body);
    return { id: req.id, value, lines: duplicates.format === 'yaml' ? duplicates.lines : [] };
  } catch (err) {
    return { id: req.id, failure: failureOf(err) };
  }
}

const port = parentPort;
if (port !== null) {
  port.on('message', (req: YamlDecodeRequest) => {
    const reply = decode(req);
    try {
      // Structured cloning keeps what JSON would lose (Infinity, NaN, -0, an alias's shared object).
      port.postMessage(reply);
    } catch (err) {
      // A value that cannot be cloned: answered as a failure rather than left to hang.
      port.postMessage({ id: req.id, failure: failureOf(err) } satisfies YamlDecodeReply);
    }
  });
}

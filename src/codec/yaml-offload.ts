// Large YAML bodies decode on a worker thread (yaml-worker.ts). The yaml package parses a 3 MiB
// body in seconds of synchronous work, and a request must not hold the event loop for work
// proportional to its size; JSON needs no such help, as its native parser is fast. One
// long-lived worker serves every request, in turn: started on the first large body, unref()ed
// while idle so it never keeps a process alive, started again after it dies. A decode whose
// worker dies fails with YamlWorkerError (an internal error), never hangs; with no worker entry to
// start (an embedder's own bundle), bodies decode in place, as before. The worker answers
// with the value and repeated-key lines, or with the error, rebuilt here into the class and
// message the synchronous serializer throws, so a client's 400 is the same either way.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { DecodeError, type DuplicateKeys, YAML_SERIALIZER } from './serializers.ts';
import type { YamlDecodeFailure, YamlDecodeReply, YamlDecodeRequest } from './yaml-worker.ts';

/** The decoding worker died (or could not start) before it answered. */
export class YamlWorkerError extends Error {
  override name = 'YamlWorkerError';
}

interface Pending {
  resolve(reply: { value: unknown; lines?: string[] }): void;
  reject(err: Error): void;
}

/** A started worker and the decodes it owes; each worker fails only its own. */
interface Running {
  worker: Worker;
  pending: Map<number, Pending>;
}

let running: Running | undefined;
let nextId = 1;

/**
 * Where the worker's entry point is, in each way this code runs: beside this module under tsx
 * (src/codec/yaml-worker.ts) and in tsc's output (dist/codec/yaml-worker.js); in the bundle
 * (scripts/bundle.mjs) it is its own entry, outdir/yaml-worker.js, while this code sits in a
 * program's entry file (outdir/) or in a shared chunk (outdir/chunks/), hence the parent folder.
 */
function findWorkerEntry(): URL | null {
  const here = import.meta.url;
  const ext = /\.[cm]?ts$/.test(new URL(here).pathname) ? '.ts' : '.js';
  const candidates = [`./yaml-worker${ext}`, `../yaml-worker${ext}`].map((rel) => new URL(rel, here));
  const found = candidates.find((url) => existsSync(url));
  if (found !== undefined) return found;
  // Bundled by an embedder that left the worker out: bodies still decode, only in place.
  process.emitWarning(
    `large YAML bodies are decoded on the main thread: no worker entry at ${candidates.join(' or ')}`,
  );
  return null;
}

/** The worker's entry point, looked for once; null when it is missing. */
let workerEntry: URL | null | undefined;

/**
 * The module a worker starts from. A .js entry starts as it is. A .ts entry is run by whatever
 * loader runs this code, but tsx (which the tests use) does not register itself in worker threads
 * on Node 20, although the worker inherits its --import flags: so the worker first tries the entry
 * as it is (Node's own type stripping, or a loader that does follow workers), and on
 * ERR_UNKNOWN_FILE_EXTENSION registers tsx's ESM hooks itself and imports it again.
 */
function bootstrap(entry: URL): URL {
  if (!entry.pathname.endsWith('.ts')) return entry;
  let tsx: string | null = null;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    // No tsx to fall back on: the first import's error stands.
  }
  const source = [
    `const entry = ${JSON.stringify(entry.href)};`,
    `const tsx = ${JSON.stringify(tsx)};`,
    'try {',
    '  await import(entry);',
    '} catch (err) {',
    "  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION' || tsx === null) throw err;",
    '  const { register } = await import(tsx);',
    '  register();',
    // A failed import is remembered by its URL: a query makes the second one a new module.
    "  await import(entry + '?tsx');",
    '}',
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

/** Fails every decode `r` owes, and forgets `r` so that the next decode starts a new worker. */
function fail(r: Running, why: string): void {
  if (running === r) running = undefined;
  const err = new YamlWorkerError(`YAML decoding failed: ${why}`);
  for (const p of r.pending.values()) p.reject(err);
  r.pending.clear();
}

function start(entry: URL): Running {
  const worker = new Worker(bootstrap(entry));
  const r: Running = { worker, pending: new Map() };
  worker.unref();
  worker.on('message', (reply: YamlDecodeReply) => {
    const p = r.pending.get(reply.id);
    if (p === undefined) return;
    r.pending.delete(reply.id);
    if (r.pending.size === 0) worker.unref();
    if ('failure' in reply) p.reject(rebuild(reply.failure));
    else p.resolve(reply);
  });
  // An answer that cannot be read cannot be matched to its decode: the worker is given up.
  worker.on('messageerror', (err) => {
    fail(r, `an answer from its worker could not be read: ${err.message}`);
    void worker.terminate();
  });
  worker.on('error', (err) => fail(r, `its worker failed: ${err.message}`));
  worker.on('exit', (code) => fail(r, `its worker exited (code ${code})`));
  return r;
}

const BUILT_IN_ERRORS: Record<string, new (message: string) => Error> = {
  Error,
  EvalError,
  RangeError,
  ReferenceError,
  SyntaxError,
  TypeError,
  URIError,
};

/** The error the synchronous path would have thrown: its class (DecodeError or built-in) and message. */
function rebuild(f: YamlDecodeFailure): Error {
  if (f.decodeError) return new DecodeError(f.message);
  const Class = BUILT_IN_ERRORS[f.name];
  if (Class !== undefined) return new Class(f.message);
  const err = new Error(f.message);
  err.name = f.name;
  return err;
}

function post(body: string, checked: boolean): Promise<{ value: unknown; lines?: string[] }> {
  if (workerEntry === undefined) workerEntry = findWorkerEntry(); // null (missing) is an answer too
  if (workerEntry === null) return inPlace(body, checked);
  let r: Running;
  try {
    r = running ??= start(workerEntry);
  } catch (err) {
    return Promise.reject(new YamlWorkerError(`YAML decoding failed: ${(err as Error).message}`));
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    r.pending.set(id, { resolve, reject });
    // A decode under way keeps the process alive, as any I/O would; an idle worker does not.
    if (r.pending.size === 1) r.worker.ref();
    r.worker.postMessage({ id, body, checked } satisfies YamlDecodeRequest);
  });
}

/** The synchronous path, answered as the worker answers, for when there is no worker to ask. */
async function inPlace(body: string, checked: boolean): Promise<{ value: unknown; lines?: string[] }> {
  if (!checked) return { value: YAML_SERIALIZER.decode(body) };
  const { value, duplicates } = YAML_SERIALIZER.decodeChecked(body);
  return { value, lines: duplicates.format === 'yaml' ? duplicates.lines : [] };
}

/** YAML_SERIALIZER.decode, on the worker thread. */
export async function decodeYamlOffThread(body: string): Promise<unknown> {
  return (await post(body, false)).value;
}

/** YAML_SERIALIZER.decodeChecked, on the worker thread. */
export async function decodeYamlCheckedOffThread(
  body: string,
): Promise<{ value: unknown; duplicates: DuplicateKeys }> {
  const { value, lines } = await post(body, true);
  return { value, duplicates: { format: 'yaml', lines: lines ?? [] } };
}

/**
 * Terminates the worker as a crash would: the decodes it owes fail, and the next large body starts
 * a new one. For tests, and for an embedder that wants the thread gone at once.
 */
export async function stopYamlWorker(): Promise<void> {
  const r = running;
  if (r === undefined) return;
  running = undefined; // a decode asked for from now on goes to a new worker
  await r.worker.terminate(); // its 'exit' fails what it owed
}

// /healthz, /livez and /readyz: named checks, `?verbose`, `?exclude=<check>`, single checks at
// /<endpoint>/<check>. Machines read only the status code; people read the per-check lines, which
// follow upstream's format so existing scripts and docs keep working.

export interface HealthCheck {
  name: string;
  /** Resolves when healthy; rejects (or returns an Error) when not. */
  check(): Promise<Error | undefined> | Error | undefined;
}

export interface HealthResponse {
  status: 200 | 404 | 500;
  body: string;
}

async function run(check: HealthCheck): Promise<Error | undefined> {
  try {
    const result = await check.check();
    return result instanceof Error ? result : undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** The whole endpoint: every check, with verbose and exclude handling. */
export async function evaluateAll(
  endpoint: string,
  checks: HealthCheck[],
  query: URLSearchParams,
): Promise<HealthResponse> {
  const excluded = new Set(
    query
      .getAll('exclude')
      .flatMap((e) => e.split(','))
      .filter((e) => e !== ''),
  );
  const results = await Promise.all(checks.map((c) => (excluded.has(c.name) ? undefined : run(c))));
  let lines = '';
  let failed = false;
  checks.forEach((c, i) => {
    if (excluded.has(c.name)) {
      excluded.delete(c.name);
      lines += `[+]${c.name} excluded: ok\n`;
    } else if (results[i] !== undefined) {
      failed = true;
      lines += `[-]${c.name} failed: reason withheld\n`;
    } else {
      lines += `[+]${c.name} ok\n`;
    }
  });
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => `"${n}"`);
    lines += `warn: some health checks cannot be excluded: no matches for ${names.join(',')}\n`;
  }
  if (failed) return { status: 500, body: `${lines}${endpoint} check failed\n` };
  if (!query.has('verbose')) return { status: 200, body: 'ok' };
  return { status: 200, body: `${lines}${endpoint} check passed\n` };
}

/** One named check: `/livez/ping`. */
export async function evaluateOne(checks: HealthCheck[], name: string): Promise<HealthResponse> {
  const check = checks.find((c) => c.name === name);
  if (check === undefined) return { status: 404, body: '404 page not found\n' };
  const err = await run(check);
  if (err !== undefined) return { status: 500, body: `internal server error: ${err.message}\n` };
  return { status: 200, body: 'ok' };
}

/**
 * Wraps a check so that, for a while after start, its failures do not fail liveness: a server that
 * is still starting is not dead (--livez-grace-period).
 */
export function withGracePeriod(check: HealthCheck, startedAt: number, graceMs: number): HealthCheck {
  return {
    name: check.name,
    async check() {
      const err = await run(check);
      if (err !== undefined && Date.now() - startedAt < graceMs) return undefined;
      return err;
    },
  };
}

/** A check that fails until `done()` is called, as post-start hooks report. */
export class CompletionCheck implements HealthCheck {
  private finished = false;
  private failure: Error | undefined;

  constructor(readonly name: string) {}

  done(): void {
    this.finished = true;
  }

  fail(err: Error): void {
    this.failure = err;
  }

  check(): Error | undefined {
    if (this.failure !== undefined) return this.failure;
    return this.finished ? undefined : new Error('not finished');
  }
}

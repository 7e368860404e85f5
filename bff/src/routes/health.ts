import type { FastifyInstance } from "fastify";

/** The most a readiness check waits for each dependency: a hung one reads as "not ready", never as a hung probe. */
const CHECK_TIMEOUT_MS = 2_000;

export interface HealthDeps {
  /** The upstream's origin: a Keyhold service, or an Infisical server. */
  upstreamOrigin: string;
  /** Pings the session store when it is Redis; undefined with in-memory sessions. */
  pingRedis?: (() => Promise<unknown>) | undefined;
  timeoutMs?: number;
}

/** A short reason for the probe's answer: a network error code (ECONNREFUSED) or message, never a URL. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "no answer in time";
  // fetch says "fetch failed"; what failed is in the cause.
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error instanceof Error ? error.message : "failed";
}

/**
 * Whether the upstream can serve: a Keyhold service says so at /readyz (its database answers);
 * an Infisical server has no such path, and answers /api/status when it is up.
 */
async function checkUpstream(origin: string, timeoutMs: number): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  const init = { signal, redirect: "manual", headers: { accept: "application/json" } } as const;
  const readyz = await fetch(`${origin}/readyz`, init);
  const body = (await readyz.json().catch(() => undefined)) as { status?: unknown; failing?: unknown } | undefined;
  if (body?.status === "ready" && readyz.status === 200) return "ok";
  if (body?.status === "unavailable") {
    const failing = Array.isArray(body.failing) ? body.failing.join(", ") : "unknown";
    return `not ready (${failing})`;
  }
  const status = await fetch(`${origin}/api/status`, init);
  await status.body?.cancel();
  return status.ok ? "ok" : `answered HTTP ${status.status}`;
}

async function withinTime(timeoutMs: number, work: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("no answer in time")), timeoutMs);
      }),
    ]);
    return "ok";
  } catch (error) {
    return reasonOf(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz: the BFF is up (liveness). GET /readyz: the upstream answers and, when sessions
 * live in Redis, Redis answers; otherwise 503 naming what fails. Every probe asks again with a
 * bounded wait, so recovery shows on the next probe. Neither path is under /api or /bff, so
 * neither is forwarded upstream nor needs the CSRF header.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const timeoutMs = deps.timeoutMs ?? CHECK_TIMEOUT_MS;

  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    const [upstream, redis] = await Promise.all([
      checkUpstream(deps.upstreamOrigin, timeoutMs).catch(reasonOf),
      deps.pingRedis ? withinTime(timeoutMs, deps.pingRedis) : Promise.resolve(undefined),
    ]);
    const checks = { upstream, ...(redis !== undefined && { redis }) };
    const failing = Object.entries(checks)
      .filter(([, result]) => result !== "ok")
      .map(([part]) => part);
    reply.header("cache-control", "no-store");
    if (failing.length === 0) return { status: "ready", checks };
    return reply.code(503).send({ status: "unavailable", failing, checks });
  });
}

import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import { errorNames, newRequestId } from "@keyhold/contract";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { HttpError } from "./errors.ts";
import { createLogger } from "./logger.ts";
import { registerCsrfGuard } from "./plugins/csrf.ts";
import { registerErrorHandler } from "./plugins/errors.ts";
import { RequestLog } from "./plugins/request-log.ts";
import { registerSecurityHeaders } from "./plugins/security-headers.ts";
import { registerWeb } from "./plugins/web.ts";
import { registerBffRoutes } from "./routes/bff.ts";
import { registerForwarding } from "./routes/forward.ts";
import { UpstreamCompat } from "./compat/upstream-compat.ts";
import { RedisSessionStore } from "./session/redis-store.ts";
import { TokenRenewal } from "./session/renewal.ts";
import { Sessions } from "./session/sessions.ts";
import { type Clock, MemorySessionStore, type SessionStore } from "./session/store.ts";
import { createUpstream } from "./upstream/client.ts";

export type { Config } from "./config.ts";
export { loadConfig } from "./config.ts";
export type { Clock, Session, SessionStore } from "./session/store.ts";
export { RedisSessionStore } from "./session/redis-store.ts";
export { MemorySessionStore } from "./session/store.ts";

/** Seams for tests; production passes none of them. */
export interface AppOverrides {
  clock?: Clock;
  sessionStore?: SessionStore;
  logger?: Logger;
}

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const clock = overrides.clock ?? Date.now;
  const loggerInstance: FastifyBaseLogger = overrides.logger ?? createLogger(config.logLevel);
  // Sessions live in Redis when REDIS_URL is set, so that several BFFs can share them.
  const store: SessionStore =
    overrides.sessionStore ??
    (config.redisUrl
      ? RedisSessionStore.connect(config.redisUrl, loggerInstance, clock)
      : new MemorySessionStore(clock));
  const sessions = new Sessions(store, { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs }, clock);
  const upstream = createUpstream({ origin: config.upstreamOrigin, timeoutMs: config.upstreamTimeoutMs });

  const app = Fastify({
    loggerInstance,
    genReqId: newRequestId,
    // One compact line per request instead of Fastify's two.
    logController: new RequestLog(loggerInstance),
    // Infisical's request ids are ours to make; a browser-sent header is not trusted.
    requestIdHeader: false,
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
  });

  app.addHook("onClose", async () => {
    await Promise.all([store.close?.(), upstream.close()]);
  });
  registerCsrfGuard(app);
  registerSecurityHeaders(app);
  registerErrorHandler(app);
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        errorNames.rateLimit,
        `Too many sign-in attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  });

  app.get("/healthz", async () => ({ status: "ok" }));
  const compat = new UpstreamCompat(upstream);
  const renewal = new TokenRenewal(sessions, compat, clock);
  registerBffRoutes(app, { sessions, compat, renewal, loginRateLimit: config.loginRateLimit });
  registerForwarding(app, { sessions, compat, renewal });
  await registerWeb(app, config.webDistDir);
  return app;
}

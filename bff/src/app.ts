import fastifyCompress from "@fastify/compress";
import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import { errorNames } from "@keyhold/contract";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { HttpError } from "./errors.ts";
import { listenForMetrics, type MetricsListener } from "@keyhold/contract/runtime-server";
import { createBffMetrics, registerRequestMetrics } from "./lib/metrics.ts";
import { lazyChildLoggerFactory, loggerFor } from "./logger.ts";
import { registerCsrfGuard } from "./plugins/csrf.ts";
import { registerErrorHandler } from "./plugins/errors.ts";
import { registerRequestIdHeader, requestIdOptions } from "./plugins/request-id.ts";
import { RequestLog } from "./plugins/request-log.ts";
import { consoleScriptSources, registerSecurityHeaders, securityHeaders } from "./plugins/security-headers.ts";
import { registerWeb } from "./plugins/web.ts";
import { OidcClient } from "./oidc/client.ts";
import { type FlowStore, MemoryFlowStore, RedisFlowStore } from "./oidc/flow-store.ts";
import { ssoRenewer } from "./oidc/renew.ts";
import { ssoSignOut } from "./oidc/sign-out.ts";
import { registerBffRoutes } from "./routes/bff.ts";
import { registerClientAddressRoute } from "./routes/client-address.ts";
import { registerOidcRoutes } from "./routes/oidc.ts";
import { registerForwarding } from "./routes/forward.ts";
import { registerHealthRoutes } from "./routes/health.ts";
import { UpstreamCompat } from "./compat/upstream-compat.ts";
import { registerSessionCookie } from "./session/cookie.ts";
import { RedisSessionStore } from "./session/redis-store.ts";
import { TokenRenewal } from "./session/renewal.ts";
import { Sessions } from "./session/sessions.ts";
import { type Clock, MemorySessionStore, type SessionStore } from "./session/store.ts";
import { createUpstream, type Upstream } from "./upstream/client.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** `http://host:port/metrics` when METRICS_PORT is set; undefined otherwise. */
    metricsUrl: string | undefined;
  }
}

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
  /** Where single sign-on keeps its pending flows; by default beside the sessions. */
  flowStore?: FlowStore;
}

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const clock = overrides.clock ?? Date.now;
  const loggerInstance: FastifyBaseLogger = overrides.logger ?? loggerFor(config);
  // Sessions live in Redis when REDIS_URL is set, so that several BFFs can share them.
  const store: SessionStore =
    overrides.sessionStore ??
    (config.redisUrl
      ? RedisSessionStore.connect(config.redisUrl, loggerInstance, clock)
      : new MemorySessionStore(clock));
  // The connection of a Redis session store also carries the shared rate-limit counters and the readiness ping.
  const redis = store instanceof RedisSessionStore ? store.client : undefined;
  // Metrics only when asked for: without them no request pays for counting.
  const metrics = config.metrics ? createBffMetrics() : undefined;
  const sessions = new Sessions(
    store,
    { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs },
    clock,
    metrics && { created: metrics.sessionCreated, ended: metrics.sessionEnded },
  );
  const plainUpstream = createUpstream({ origin: config.upstreamOrigin, timeoutMs: config.upstreamTimeoutMs });
  const upstream = metrics ? timedUpstream(plainUpstream, metrics.observeUpstream) : plainUpstream;

  const app = Fastify({
    loggerInstance,
    childLoggerFactory: lazyChildLoggerFactory,
    // A plausible X-Request-Id from the caller is kept, otherwise one is made (Infisical's form).
    ...requestIdOptions,
    // One compact line per request instead of Fastify's two.
    logController: new RequestLog(loggerInstance),
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // Behind a trusted proxy, request.ip is the browser's address from its X-Forwarded-For (what
    // the BFF passes on to the service); anyone else's forwarded header is ignored.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
  });

  let metricsListener: MetricsListener | undefined;
  app.addHook("onClose", async () => {
    await Promise.all([store.close?.(), upstream.close(), metricsListener?.close()]);
  });
  if (metrics) registerRequestMetrics(app, metrics);
  registerRequestIdHeader(app);
  registerSessionCookie(app, config.insecureCookies);
  if (config.insecureCookies && config.nodeEnv === "production") {
    app.log.warn("KEYHOLD_INSECURE_COOKIES=true: the session cookie is sent over plain HTTP too");
  }
  registerCsrfGuard(app);
  registerSecurityHeaders(app, securityHeaders(consoleScriptSources(config.webDistDir)));
  registerErrorHandler(app);
  await app.register(fastifyCookie);
  // Compression only where a route asks for it (the forwarded API answers; the console's files
  // are precompressed by its build), and no compressed request bodies are ever inflated.
  await app.register(fastifyCompress, { global: false, encodings: ["br", "gzip"] });
  await app.register(fastifyRateLimit, {
    global: false,
    // Shared by every BFF on the same Redis, so the limit holds however a balancer spreads the attempts.
    ...(redis && {
      redis,
      nameSpace: "keyhold:rate-limit:",
      // With Redis away a sign-in cannot create its session anyway (503); the limiter does not turn that into a 500.
      skipOnError: true,
    }),
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        errorNames.rateLimit,
        `Too many sign-in attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  });

  registerHealthRoutes(app, { upstreamOrigin: config.upstreamOrigin, pingRedis: redis && (() => redis.ping()) });
  const compat = new UpstreamCompat(upstream);
  const oidc = config.oidc && { config: config.oidc, client: new OidcClient(config.oidc) };
  const renewal = new TokenRenewal(sessions, compat, clock, oidc && ssoRenewer(oidc.config, oidc.client, compat));
  const flows = overrides.flowStore ?? (redis ? new RedisFlowStore(redis, loggerInstance) : new MemoryFlowStore(clock));
  registerBffRoutes(app, {
    sessions,
    compat,
    renewal,
    loginRateLimit: config.loginRateLimit,
    credentialSignIn: config.credentialSignIn,
    ...(oidc && {
      ssoSignOut: (session, request) =>
        ssoSignOut(oidc.client, session, config.publicUrl ?? `${request.protocol}://${request.host}`, request.log),
    }),
  });
  registerClientAddressRoute(app, { sessions, renewal, trustedProxies: config.trustedProxies });
  registerOidcRoutes(app, {
    config,
    oidc,
    flows,
    sessions,
    compat,
    renewal,
    clock,
    ...(metrics && { onOutcome: metrics.ssoSignIn }),
  });
  registerForwarding(app, { sessions, compat, renewal });
  await registerWeb(app, config.webDistDir);
  app.decorate("metricsUrl", undefined as string | undefined);
  if (metrics && config.metrics) {
    await app.ready();
    metricsListener = await listenForMetrics(metrics.registry, config.metrics);
    app.metricsUrl = metricsListener.url;
    app.log.info({ url: metricsListener.url }, "Metrics served");
  }
  return app;
}

/** The upstream, with the time of every call observed (by endpoint and the upstream's status class). */
function timedUpstream(
  upstream: Upstream,
  observe: (endpoint: string, outcome: number | "error" | "timeout", seconds: number) => void,
): Upstream {
  return {
    timeoutMs: upstream.timeoutMs,
    close: () => upstream.close(),
    call: async (request, log) => {
      const started = performance.now();
      const endpoint = request.endpoint ?? "unknown";
      try {
        const response = await upstream.call(request, log);
        observe(endpoint, response.status, (performance.now() - started) / 1000);
        return response;
      } catch (error) {
        const outcome = error instanceof HttpError && error.statusCode === 504 ? "timeout" : "error";
        observe(endpoint, outcome, (performance.now() - started) / 1000);
        throw error;
      }
    },
  };
}

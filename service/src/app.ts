import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { DestinationStream } from "pino";
import { type Config, dataFiles } from "./config.ts";
import { deriveChainKeys } from "./audit/chain.ts";
import { scheduleAuditPruning } from "./audit/retention.ts";
import { createAuditScope } from "./audit/scope.ts";
import { openDatabase } from "./db/database.ts";
import { pendingMigrations } from "./db/migrations.ts";
import type { Database } from "./db/schema.ts";
import { createAuditLogReader } from "./audit/read-service.ts";
import { createRetentionSettings } from "./audit/retention-settings.ts";
import { createAccessTokenService, deriveTokenSigningKey } from "./domain/access-tokens.ts";
import { bootstrap } from "./domain/bootstrap.ts";
import { createIdentityPrivilegeService } from "./domain/identity-privilege-service.ts";
import { createIdentityService } from "./domain/identity-service.ts";
import { createImportsAndIntegrations } from "./domain/imports-integrations.ts";
import { createAuthMethodService } from "./domain/auth-method-service.ts";
import { createTokenAuthService } from "./domain/token-auth-service.ts";
import { createTokenUsage } from "./domain/token-usage.ts";
import { createAwsAuthService } from "./domain/aws-auth-service.ts";
import { createAuditLogStreamService } from "./domain/audit-log-stream-service.ts";
import { startStreamDelivery } from "./audit/stream-delivery.ts";
import { createKubernetesAuthService } from "./domain/kubernetes-auth-service.ts";
import { createMembershipService } from "./domain/membership-service.ts";
import { createOidcAuthService } from "./domain/oidc-auth-service.ts";
import { createProjectPermissions } from "./domain/project-permissions.ts";
import { createEnvironmentService } from "./domain/environment-service.ts";
import { createProjectRoleService } from "./domain/project-role-service.ts";
import { createProjectService } from "./domain/project-service.ts";
import { createSecretCore } from "./domain/secret-core.ts";
import { createSignIn } from "./domain/sign-in.ts";
import { createUniversalAuthService } from "./domain/universal-auth-service.ts";
import { createLogger } from "./lib/logger.ts";
import { loadRootKey } from "./lib/root-key.ts";
import { createSealer } from "./lib/sealing.ts";
import { deferredChildLogger, listenForMetrics, type MetricsListener } from "@keyhold/contract/runtime-server";
import { createServiceMetrics, registerRequestMetrics } from "./lib/metrics.ts";
import { registerAuth } from "./plugins/auth.ts";
import { registerErrorHandling } from "./plugins/error-handler.ts";
import { registerRequestIdHeader, requestIdOptions } from "./plugins/request-id.ts";
import { CompactRequestLog } from "./plugins/request-log.ts";
import { registerContractRoutes } from "./routes/contract-routes.ts";
import { registerDocsRoute } from "./routes/docs.ts";
import { registerHealthRoutes } from "./routes/health.ts";
import { buildHandlers } from "./routes/handlers.ts";
import { registerStatusRoute } from "./routes/status.ts";

export type { Config } from "./config.ts";

/** What a started service tells its owner (the server entry, or another package's tests). */
export interface KeyholdInfo {
  /** The organisation created on first start. */
  orgId: string;
  /** The bootstrap `admin` identity (org role admin, token auth). */
  adminIdentityId: string;
  /** `<data dir>/admin-token`: the latest admin token, alone, mode 0600. */
  adminTokenFile: string;
  /** The admin token issued on this start; null when the database was already set up. */
  bootstrapToken: string | null;
  dialect: "sqlite" | "postgres";
}

declare module "fastify" {
  interface FastifyInstance {
    keyhold: KeyholdInfo;
    /** The service's database, for tests that seed what the API cannot (a second organisation). */
    db: Kysely<Database>;
    /** Writes batched token uses now (tests read the counters without waiting for the interval). */
    flushTokenUsage(): Promise<void>;
    /** Runs a pass of audit retention now (tests; the service runs it every KEYHOLD_AUDIT_PRUNE_INTERVAL_MS). */
    pruneAuditLog(): Promise<void>;
    /** `http://host:port/metrics` when METRICS_PORT is set; undefined otherwise. */
    metricsUrl: string | undefined;
  }
}

export interface BuildAppOptions {
  config: Config;
  /** Where logs go (default stdout); tests pass a stream to read them. */
  logStream?: DestinationStream;
  /**
   * false: requests write no audit events. Only the benchmark that measures what recording costs
   * sets it; no configuration can.
   */
  audit?: boolean;
}

/**
 * Builds the service: opens and migrates the database, sets up an empty one, registers every
 * route, and returns a ready instance (call `listen` to serve, `inject` to test, `close` to
 * stop; closing also closes the database).
 */
export async function buildApp({ config, logStream, audit = true }: BuildAppOptions): Promise<FastifyInstance> {
  const logger = createLogger(config, logStream);
  const rootKey = loadRootKey(config);
  const { db, dialect, poolStats } = await openDatabase(config, logger);
  const chainKeys = deriveChainKeys(rootKey);

  const app: FastifyInstance = Fastify({
    // Typed as Fastify's base logger so the instance is a plain FastifyInstance.
    loggerInstance: logger as FastifyBaseLogger,
    // The id is logged as `reqId` (Fastify's default label) and returned in every error body.
    ...requestIdOptions,
    logController: new CompactRequestLog(logger as FastifyBaseLogger),
    childLoggerFactory: deferredChildLogger,
    onProtoPoisoning: "error",
    onConstructorPoisoning: "error",
    // X-Forwarded-For is believed only from the configured proxies: request.ip (the address checked
    // against trusted IPs) is the right-most address in the chain that is not one of them. Without
    // any, Fastify reads no forwarded header and request.ip is the connection's peer.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
  });
  // Metrics only when asked for: without them no request pays for counting.
  const metrics = config.metrics ? createServiceMetrics() : undefined;
  const usage = createTokenUsage(
    { db, logger },
    { flushIntervalMs: config.tokenUsageFlushMs, ...(metrics && { onFlush: metrics.tokenUsageFlushed }) },
  );
  metrics?.watch({ dialect, poolStats, pendingTokenUses: () => usage.pendingTokens });
  let metricsListener: MetricsListener | undefined;
  app.addHook("onClose", async () => {
    await metricsListener?.close();
  });
  const pruning = scheduleAuditPruning({ db, keys: chainKeys, logger }, config.auditPruneIntervalMs);
  // Pending token uses are written, and a pruning pass finishes, before the database closes.
  app.addHook("onClose", async () => {
    await pruning.close();
    await usage.close();
    await db.destroy();
  });

  try {
    const accessTokens = createAccessTokenService({ db, signingKey: deriveTokenSigningKey(rootKey), usage });
    const identities = createIdentityService({ db });
    const tokenAuth = createTokenAuthService({ db, identities, accessTokens });
    const authMethods = createAuthMethodService({
      db,
      identities,
      sealer: createSealer(rootKey, "auth-method-credentials"),
    });
    const universalAuth = createUniversalAuthService({ db, identities, accessTokens });
    const signIn = createSignIn({ db, accessTokens, authMethods });
    const kubernetesAuth = createKubernetesAuthService({ signIn, authMethods });
    const oidcAuth = createOidcAuthService({ signIn, authMethods });
    const awsAuth = createAwsAuthService({ signIn, authMethods });
    const projectPermissions = createProjectPermissions({ db });
    const privileges = createIdentityPrivilegeService({ db, projectPermissions });
    const memberships = createMembershipService({ db, projectPermissions });
    const projects = createProjectService({ db, projectPermissions });
    const environments = createEnvironmentService({ db, projectPermissions });
    const projectRoles = createProjectRoleService({ db, projectPermissions });
    const secretCore = createSecretCore({ db, dialect, projectPermissions, rootKey });
    const { integrations, secretImports } = createImportsAndIntegrations({
      db,
      dialect,
      projectPermissions,
      rootKey,
      secretCore,
      log: logger,
    });

    const auditLogs = createAuditLogReader({ db, dialect, projectPermissions });
    const auditRetention = createRetentionSettings({ db, projectPermissions });
    const streamSealer = createSealer(rootKey, "audit-log-stream-headers");
    const streamDelivery = startStreamDelivery({ db, sealer: streamSealer, logger, options: config.auditStreams });
    // Before the server closes and the database with it: deliveries under way end, leases are given up.
    app.addHook("preClose", () => streamDelivery.close());
    const auditStreams = createAuditLogStreamService({ db, sealer: streamSealer, nudge: streamDelivery.nudge });

    const setup = await bootstrap({ db, accessTokens, logger }, dataFiles(config).adminToken);
    app.decorate("keyhold", { ...setup, adminTokenFile: dataFiles(config).adminToken, dialect });
    app.decorate("db", db);
    app.decorate("flushTokenUsage", usage.flush);
    app.decorate("pruneAuditLog", pruning.runNow);

    // The API speaks JSON only; a text/plain body is refused with 415 like any other type.
    app.removeContentTypeParser("text/plain");
    registerErrorHandling(app);
    registerRequestIdHeader(app);
    if (metrics) registerRequestMetrics(app, metrics);
    registerHealthRoutes(app, { db, pendingMigrations: () => pendingMigrations(db as Kysely<unknown>, dialect) });
    const authenticate = registerAuth(app, accessTokens);
    registerStatusRoute(app);
    registerDocsRoute(app);
    registerContractRoutes(
      app,
      buildHandlers({
        identities,
        tokenAuth,
        authMethods,
        universalAuth,
        kubernetesAuth,
        oidcAuth,
        awsAuth,
        accessTokens,
        projectPermissions,
        privileges,
        memberships,
        projects,
        environments,
        projectRoles,
        integrations,
        secretImports,
        secretCore,
        auditLogs,
        auditRetention,
        auditStreams,
        auditChain: { db, keys: chainKeys },
      }),
      authenticate,
      audit ? createAuditScope({ db, dialect, keys: chainKeys }) : undefined,
    );
    app.decorate("metricsUrl", undefined as string | undefined);
    await app.ready();
    if (metrics && config.metrics) {
      metricsListener = await listenForMetrics(metrics.registry, config.metrics);
      app.metricsUrl = metricsListener.url;
      logger.info({ url: metricsListener.url }, "Metrics served");
    }
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}

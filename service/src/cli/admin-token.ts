import { type Config, dataFiles, loadConfig } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import { createAccessTokenService, deriveTokenSigningKey } from "../domain/access-tokens.ts";
import { issueAdminToken } from "../domain/bootstrap.ts";
import { createTokenUsage } from "../domain/token-usage.ts";
import { findInstance } from "../data/organizations.ts";
import { createLogger } from "../lib/logger.ts";
import { loadRootKey } from "../lib/root-key.ts";

/** Issues a fresh admin token into `<data dir>/admin-token` for an existing database. */
export async function writeFreshAdminToken(config: Config): Promise<string> {
  const logger = createLogger(config);
  const rootKey = loadRootKey(config);
  const { db } = await openDatabase(config, logger);
  const usage = createTokenUsage({ db, logger }, { flushIntervalMs: config.tokenUsageFlushMs });
  try {
    const instance = await findInstance(db);
    if (!instance) throw new Error("This database has not been set up yet: start the service once first");
    const accessTokens = createAccessTokenService({ db, signingKey: deriveTokenSigningKey(rootKey), usage });
    const file = dataFiles(config).adminToken;
    await issueAdminToken({ db, accessTokens }, instance.adminIdentityId, file);
    logger.info({ adminTokenFile: file }, "A fresh admin access token was written to the admin token file");
    return file;
  } finally {
    await usage.close();
    await db.destroy();
  }
}

// Run as a script (`pnpm --filter @keyhold/service admin-token`), not when imported by tests.
if (import.meta.url === `file://${process.argv[1]}`) {
  writeFreshAdminToken(loadConfig(process.env)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}

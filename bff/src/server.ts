import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { handleShutdownSignals } from "@keyhold/contract/runtime-server";

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  handleShutdownSignals(app, config.shutdownGraceMs);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ upstream: config.upstreamOrigin, web: config.webDistDir ?? "not built" }, "Keyhold BFF ready");
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

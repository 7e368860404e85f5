import { ConfigError, loadConfig } from "./config.ts";

try {
  const config = loadConfig(process.env);
  // Loaded once the configuration is known to be good, so that a wrong one fails at once.
  const [{ buildApp }, { handleShutdownSignals }] = await Promise.all([
    import("./app.ts"),
    import("@keyhold/contract/runtime-server"),
  ]);
  const app = await buildApp({ config });
  handleShutdownSignals(app, config.shutdownGraceMs);
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  // A configuration problem is one line naming the variable, not a stack trace.
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { handleShutdownSignals } from "./lib/shutdown.ts";

const config = loadConfig(process.env);
const app = await buildApp({ config });
handleShutdownSignals(app, config.shutdownGraceMs);

await app.listen({ port: config.port, host: config.host });

import { buildApp } from "@keyhold/service/app";
import { loadConfig } from "@keyhold/service/config";

/**
 * The service built without audit recording (`audit: false`, an option of buildApp that no
 * configuration can set): the "without" side of the audit-write benchmark, otherwise the same
 * service, configured from the same environment.
 */
const config = loadConfig(process.env);
const app = await buildApp({ config, audit: false });
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
await app.listen({ port: config.port, host: config.host });

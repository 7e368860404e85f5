import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";

const config = loadConfig(process.env);
const app = await buildApp({ config });

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "Shutting down");
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "Shutdown failed");
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });

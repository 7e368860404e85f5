import type { FastifyInstance } from "fastify";

/**
 * SIGTERM (what orchestrators send) and SIGINT (Ctrl-C) stop the server gracefully: it stops
 * accepting connections and answers new requests on open ones with 503, lets the requests in
 * flight finish (closing each connection once it falls idle), then runs the app's close hooks (the service writes its batched token uses and
 * closes the database; the BFF closes Redis and its upstream pool) and exits 0. Requests still
 * running after `graceMs` have their connections closed so that shutdown ends in bounded time;
 * the close hooks run all the same. A second signal of the same kind ends the process at once.
 */
export function handleShutdownSignals(app: FastifyInstance, graceMs: number): void {
  let closing = false;
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs }, "Shutting down: finishing the requests in flight");
    // A connection whose request finishes after the close began would otherwise stay open on
    // keep-alive until the client hangs up: close each one as soon as it falls idle.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
    const grace = setTimeout(() => {
      app.log.warn({ graceMs }, "Shutdown grace period over: closing the connections of requests still running");
      app.server.closeAllConnections();
    }, graceMs);
    try {
      await app.close();
      clearInterval(idleSweep);
      clearTimeout(grace);
      app.log.info("Stopped");
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "Shutdown failed");
      process.exit(1);
    }
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, (s) => void shutDown(s));
}

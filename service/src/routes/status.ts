import type { FastifyInstance } from "fastify";

/** Health check for load balancers and scripts; needs no token. */
export function registerStatusRoute(app: FastifyInstance): void {
  app.get("/api/status", async () => ({ date: new Date().toISOString(), message: "Ok" }));
}

import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { notFound } from "../errors.ts";
import { isApiOrBffRequest, pathOf } from "./scope.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Vite writes content-hashed files to assets/; everything else must be revalidated. The
 * path may be a precompressed copy (`index.html.br`), which is cached like the original.
 */
function cacheControlFor(filePath: string): string {
  const original = filePath.replace(/\.(br|gz)$/, "");
  if (/[\\/]assets[\\/]/.test(original)) return IMMUTABLE;
  if (original.endsWith("index.html")) return "no-store";
  return "no-cache";
}

/**
 * Serves the built SPA when there is one. Unknown GET navigations outside
 * /api and /bff get index.html so deep links work; everything else unknown is
 * a 404 in the error envelope.
 */
export async function registerWeb(app: FastifyInstance, webDistDir: string | undefined): Promise<void> {
  if (webDistDir !== undefined) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      // The web build writes brotli and gzip copies beside each file (index.html included):
      // the best one the browser accepts is sent with its Content-Encoding, else the original.
      preCompressed: true,
      cacheControl: false,
      dotfiles: "ignore",
      setHeaders: (res, filePath) => {
        res.setHeader("cache-control", cacheControlFor(filePath));
        // One URL, several encodings: a shared cache must key its copies on Accept-Encoding.
        res.setHeader("vary", "accept-encoding");
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = pathOf(request.url);
    const navigation = (request.method === "GET" || request.method === "HEAD") && !isApiOrBffRequest(request);
    if (webDistDir === undefined || !navigation || path.startsWith("/assets/")) {
      throw notFound(
        webDistDir === undefined && navigation
          ? "The web app has not been built. Run: pnpm --filter @keyhold/web build"
          : "Nothing is served at this path.",
      );
    }
    return reply.sendFile("index.html");
  });
}

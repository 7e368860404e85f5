/// <reference types="vitest/config" />
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";
import { preloadFonts } from "./tooling/font-preload.ts";
import { jsBudget } from "./tooling/js-budget.ts";
import { consoleRoutes } from "./tooling/route-js.ts";
import { routePreloads } from "./tooling/route-preloads.ts";
import { zodWithoutJsonSchema } from "./tooling/zod-without-json-schema.ts";

const src = fileURLToPath(new URL("./src", import.meta.url));
// React Router's package exports only its development build (warnings, invariant messages); it
// ships the production build beside it, which a production bundle takes instead.
const reactRouterProduction = fileURLToPath(
  new URL("./node_modules/react-router/dist/production/index.mjs", import.meta.url),
);
const backend = "http://127.0.0.1:8080";

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    tailwindcss(),
    zodWithoutJsonSchema(),
    preloadFonts(["inter-latin-wght-normal.woff2"]),
    routePreloads(Object.values(consoleRoutes), fileURLToPath(new URL("./boot.js", import.meta.url))),
    // Brotli and gzip copies beside each file (index.html included), served by the BFF
    // when the browser accepts them; woff2 is compressed already.
    compression({ algorithms: ["brotliCompress", "gzip"], exclude: [/manifest\.json$/], logLevel: "silent" }),
    jsBudget(consoleRoutes),
  ],
  resolve: {
    // Workspace packages from their TypeScript sources (the contract's compiled dist is for `node`).
    conditions: ["@keyhold/source", ...defaultClientConditions],
    alias: [
      { find: /^@\//, replacement: `${src}/` },
      // Radix's scroll lock injects a <style> element at runtime, which the production CSP
      // (style-src 'self') refuses. This stand-in locks scrolling through the CSSOM instead.
      { find: /^react-remove-scroll$/, replacement: `${src}/lib/scroll-lock.tsx` },
      ...(command === "build" ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: true,
    proxy: { "/api": backend, "/bff": backend },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Inlined assets become data: URLs, which the CSP allows for images only; keep fonts as files.
    assetsInlineLimit: 0,
    sourcemap: false,
    // Every browser the build targets supports <link rel=modulepreload>; the polyfill would
    // only add to the first screen's JavaScript.
    modulePreload: { polyfill: false },
    // Vite's manifest maps each entry and chunk to its static imports; the JavaScript budget
    // (tooling/js-budget.ts) reads it to find what the sign-in page downloads.
    manifest: true,
    rolldownOptions: {
      // The contract's modules only declare schemas and endpoints (their `.describe()` notes
      // matter to the service's OpenAPI, not here), so a page that uses none of a module's
      // exports does not need it. Without this, every page would carry the whole API.
      treeshake: { moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
      output: {
        // The libraries the first screen needs (React, the router, TanStack Query, zod…) in
        // one chunk, which compresses better than the several shared chunks rolldown would
        // otherwise make of them. Everything else is split by use: nothing the sign-in page
        // does not need is forced into its download.
        codeSplitting: {
          groups: [
            { name: "vendor", test: /node_modules/, tags: ["$initial"], priority: 2 },
            {
              name: "console-kit",
              test: /node_modules[\\/](\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(lucide-react|@tanstack[\\/]react-query)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/testing/setup.ts"],
    css: false,
    restoreMocks: true,
    // Typing and clicking through a whole page in jsdom takes a few seconds on two busy cores.
    testTimeout: 15_000,
  },
}));

import { defineConfig } from "vitest/config";

export default defineConfig({
  // Workspace packages from their TypeScript sources (the compiled dist is for `node` alone),
  // then Vite's default server conditions.
  ssr: { resolve: { conditions: ["@keyhold/source", "module", "node", "development|production"] } },
  test: { include: ["src/**/*.test.ts"], testTimeout: 20_000 },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  // Workspace packages from their TypeScript sources, as `pnpm bench` runs them.
  ssr: { resolve: { conditions: ["@keyhold/source", "node", "development|production"] } },
  test: {
    include: ["src/**/*.test.ts"],
    // Each file starts real processes (the service, floors, nginx) on real databases.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The processes of two files at once would only compete for the same cores.
    fileParallelism: false,
  },
});

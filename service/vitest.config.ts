import { defineConfig } from "vitest/config";

export default defineConfig({
  // Workspace packages from their TypeScript sources (the compiled dist is for `node` alone),
  // then Node's own conditions. Not "module": packages that point it at ES files with
  // extensionless imports (the AWS SDK's, under Infisical's SDK) would fail in Node's loader.
  ssr: { resolve: { conditions: ["@keyhold/source", "node", "development|production"] } },
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["./src/test/global-setup.ts"],
    // Each file starts real services on real databases; PostgreSQL runs add database creation.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

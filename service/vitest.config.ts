import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["./src/test/global-setup.ts"],
    // Each file starts real services on real databases; PostgreSQL runs add database creation.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

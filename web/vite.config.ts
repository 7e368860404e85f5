/// <reference types="vitest/config" />
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const src = fileURLToPath(new URL("./src", import.meta.url));
const backend = "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${src}/` },
      // Radix's scroll lock injects a <style> element at runtime, which the production CSP
      // (style-src 'self') refuses. This stand-in locks scrolling through the CSSOM instead.
      { find: /^react-remove-scroll$/, replacement: `${src}/lib/scroll-lock.tsx` },
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
    rolldownOptions: {
      output: {
        // Libraries change less often than the app; separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
            { name: "ui", test: /node_modules[\\/](@radix-ui|@floating-ui|lucide-react|@tanstack)[\\/]/, priority: 2 },
            {
              name: "zod",
              test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]|[\\/]contract[\\/]src[\\/]/,
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
  },
});

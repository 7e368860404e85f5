import type { Plugin } from "vite";

/**
 * Adds `<link rel="preload" as="font" crossorigin>` for the named font files, with their
 * hashed URLs, so the browser fetches the text font alongside the JavaScript instead of
 * discovering it only once the stylesheet has been applied to rendered text. A file
 * name that matches no built asset fails the build: a silent miss would only show up as
 * a slower first paint.
 */
export function preloadFonts(fileNames: readonly string[]): Plugin {
  let base = "/";
  return {
    name: "keyhold:preload-fonts",
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const assets = Object.values(bundle).filter((output) => output.type === "asset");
        return fileNames.map((name) => {
          const asset = assets.find(
            (a) => a.names.includes(name) || a.originalFileNames.some((f) => f.endsWith(`/${name}`)),
          );
          if (!asset) throw new Error(`preloadFonts: no built asset is named ${name}`);
          return {
            tag: "link",
            // Font preloads are always CORS requests; without `crossorigin` the browser fetches the font twice.
            attrs: {
              rel: "preload",
              as: "font",
              type: "font/woff2",
              href: `${base}${asset.fileName}`,
              crossorigin: "",
            },
            injectTo: "head",
          };
        });
      },
    },
  };
}

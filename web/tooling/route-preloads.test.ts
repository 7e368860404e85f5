import { afterEach, describe, expect, it, vi } from "vitest";
import nginxConfig from "../../deploy/nginx.conf?raw";
import bootScript from "../boot.js?raw";
import type { ConsoleRoute } from "./route-js.ts";
import { type BuiltChunk, ROUTE_PRELOADS_ID, routePreloadTable, scriptHash } from "./route-preloads.ts";

const root = "/repo/web";
const chunk = (
  fileName: string,
  imports: string[] = [],
  facade: string | null = null,
  isEntry = false,
): BuiltChunk => ({
  fileName,
  imports,
  facadeModuleId: facade && `${root}/${facade}`,
  isEntry,
});

const chunks = [
  chunk("assets/index-a.js", ["assets/vendor-b.js"], "index.html", true),
  chunk("assets/vendor-b.js"),
  chunk("assets/shell-c.js", ["assets/vendor-b.js", "assets/kit-d.js"], "src/app/app-shell.tsx"),
  chunk("assets/kit-d.js", ["assets/vendor-b.js"]),
  chunk("assets/page-e.js", ["assets/kit-d.js"], "src/features/identities/components/identities-page.tsx"),
  chunk("assets/table-f.js", ["assets/kit-d.js"], "src/features/identities/components/identities-table.tsx"),
];
const identities: ConsoleRoute = {
  path: "/identities",
  routeModules: ["src/app/app-shell.tsx", "src/features/identities/components/identities-page.tsx"],
  afterPaintModules: ["src/features/identities/components/identities-table.tsx"],
  budgetKB: 200,
};
const signIn: ConsoleRoute = { path: "/sign-in", routeModules: [], afterPaintModules: [], budgetKB: 150 };

describe("routePreloadTable", () => {
  it("lists a route's chunks and their imports, not the entry's, nor what loads after the first paint", () => {
    expect(routePreloadTable(chunks, [signIn, identities], root)).toEqual([
      { path: "/identities", files: ["/assets/kit-d.js", "/assets/page-e.js", "/assets/shell-c.js"] },
    ]);
  });

  it("refuses a route module the build does not have", () => {
    const renamed = { ...identities, routeModules: ["src/features/identities/identities-page.tsx"] };
    expect(() => routePreloadTable(chunks, [renamed], root)).toThrow(/identities-page\.tsx is not a chunk/);
  });
});

describe("boot.js", () => {
  afterEach(() => {
    document.head.innerHTML = "";
    window.history.replaceState(null, "", "/");
    vi.unstubAllGlobals();
  });

  function boot(path: string) {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 401 })),
    );
    window.history.replaceState(null, "", path);
    const table = [
      { path: "/identities", files: ["/assets/list.js"] },
      { path: "/identities/:identityId", files: ["/assets/detail.js", "/assets/kit.js"] },
    ];
    document.head.innerHTML = `<script type="application/json" id="${ROUTE_PRELOADS_ID}">${JSON.stringify(table)}</script>`;
    new Function(bootScript)();
    return [...document.head.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")].map((link) => [
      link.getAttribute("href"),
      link.crossOrigin,
    ]);
  }

  it("tells zod, before it loads, not to probe for eval, which the CSP refuses", () => {
    boot("/sign-in");
    expect((window as { __zod_globalConfig?: unknown }).__zod_globalConfig).toEqual({ jitless: true });
  });

  it.each([
    ["/identities", [["/assets/list.js", ""]]],
    ["/identities/", [["/assets/list.js", ""]]],
    [
      "/identities/0b8a5f0e-3c2d",
      [
        ["/assets/detail.js", ""],
        ["/assets/kit.js", ""],
      ],
    ],
    ["/identities/0b8a5f0e-3c2d/edit", []],
    ["/sign-in", []],
    ["/", []],
  ])("preloads for %s what the build listed", (path, expected) => {
    expect(boot(path)).toEqual(expected);
  });
});

describe("the boot script's hash", () => {
  it("is the one the browser computes: SHA-256 of the script's text, base64", () => {
    // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
    expect(scriptHash("alert(1)")).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });

  it("is allowed by deploy/nginx.conf's Content-Security-Policy, as the BFF allows it from the build", () => {
    const policy = /add_header Content-Security-Policy "([^"]+)"/.exec(nginxConfig)?.[1];
    expect(policy).toMatch(/^default-src 'none'; script-src 'self' 'sha256-[A-Za-z0-9+/]{43}='; style-src 'self';/);
    expect(policy).toContain(`script-src 'self' ${scriptHash(bootScript)};`);
  });
});

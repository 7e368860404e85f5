import { describe, expect, it } from "vitest";
import {
  childPath,
  folderHref,
  normalizeSecretPath,
  pathCrumbs,
  readSecretLocation,
  writeSecretLocation,
} from "./secret-location";

describe("secret location in the URL", () => {
  it("reads environment, folder, search and tag", () => {
    expect(readSecretLocation(new URLSearchParams("env=prod&path=/app/api&q=db&tag=backend"))).toEqual({
      environment: "prod",
      secretPath: "/app/api",
      search: "db",
      tag: "backend",
    });
  });

  it("reads a bare URL as the root of the first environment, unfiltered", () => {
    expect(readSecretLocation(new URLSearchParams(""))).toEqual({
      environment: undefined,
      secretPath: "/",
      search: "",
      tag: undefined,
    });
  });

  it("brings a folder path to the service's form, and refuses segments no folder can have", () => {
    expect(normalizeSecretPath("app//api/")).toBe("/app/api");
    expect(normalizeSecretPath("/")).toBe("/");
    expect(normalizeSecretPath(null)).toBe("/");
    expect(normalizeSecretPath("/app/../etc")).toBe("/");
    expect(normalizeSecretPath("/a b")).toBe("/");
  });

  it("writes only what differs from the defaults and keeps unrelated parameters", () => {
    const params = new URLSearchParams("env=dev&path=/app&q=db&other=1");
    expect(writeSecretLocation(params, { secretPath: "/", search: "" }).toString()).toBe("env=dev&other=1");
    expect(writeSecretLocation(params, { tag: "x", environment: "prod" }).toString()).toBe(
      "env=prod&path=%2Fapp&q=db&other=1&tag=x",
    );
    expect(writeSecretLocation(params, { tag: undefined }).has("tag")).toBe(false);
  });

  it("names every folder from the root down, and the path of a folder inside another", () => {
    expect(pathCrumbs("/")).toEqual([]);
    expect(pathCrumbs("/app/api")).toEqual([
      { name: "app", path: "/app" },
      { name: "api", path: "/app/api" },
    ]);
    expect(childPath("/", "app")).toBe("/app");
    expect(childPath("/app", "api")).toBe("/app/api");
  });

  it("names the open secret, and closes it on going to another environment or folder", () => {
    const params = new URLSearchParams("env=dev&q=db&secret=DATABASE_URL");
    expect(readSecretLocation(params).secret).toBe("DATABASE_URL");
    expect(writeSecretLocation(params, { secret: undefined }).toString()).toBe("env=dev&q=db");
    expect(writeSecretLocation(params, { secret: "API_KEY" }).get("secret")).toBe("API_KEY");
    expect(writeSecretLocation(params, { environment: "prod" }).toString()).toBe("env=prod&q=db");
    expect(writeSecretLocation(params, { secretPath: "/app" }).toString()).toBe("env=dev&q=db&path=%2Fapp");
  });
});

describe("folderHref", () => {
  it("addresses a folder, and a secret open in it, leaving the current search and tag behind", () => {
    const href = folderHref({ environment: "prod", secretPath: "/shared" }, "API_KEY");
    expect(readSecretLocation(new URLSearchParams(href.slice(1)))).toEqual({
      environment: "prod",
      secretPath: "/shared",
      search: "",
      tag: undefined,
      secret: "API_KEY",
    });
    const root = folderHref({ environment: "dev", secretPath: "/" });
    expect(readSecretLocation(new URLSearchParams(root.slice(1)))).toMatchObject({
      secretPath: "/",
      secret: undefined,
    });
  });
});

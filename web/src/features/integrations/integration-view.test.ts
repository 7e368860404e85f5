import type { Integration } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { providerName, syncStatus, targetName } from "./integration-view";

const integration = (fields: Partial<Integration>): Integration => ({
  id: "0b7e3c4a-0000-4000-8000-000000000001",
  isActive: true,
  integration: "github",
  integrationAuthId: "0b7e3c4a-0000-4000-8000-000000000002",
  envId: "0b7e3c4a-0000-4000-8000-000000000003",
  secretPath: "/",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  environment: { id: "e", name: "Development", slug: "dev" },
  ...fields,
});

describe("syncStatus", () => {
  it("reads the last sync's outcome, and a record never tried as such", () => {
    expect(syncStatus(integration({ isSynced: true }))).toEqual({ label: "Synced", tone: "success" });
    expect(syncStatus(integration({ isSynced: false }))).toEqual({ label: "Not synced", tone: "warning" });
    expect(syncStatus(integration({ isSynced: null }))).toEqual({ label: "Never synced", tone: "neutral" });
    expect(syncStatus(integration({ isSynced: null, isActive: false }))).toEqual({ label: "Paused", tone: "neutral" });
  });
});

describe("targetName", () => {
  it("names the app, else the target service, else the owner; nothing when all are blank", () => {
    expect(targetName(integration({ app: "acme/api", owner: "acme" }))).toBe("acme/api");
    expect(targetName(integration({ app: " ", targetService: "api-service" }))).toBe("api-service");
    expect(targetName(integration({ owner: "acme" }))).toBe("acme");
    expect(targetName(integration({}))).toBeUndefined();
  });
});

describe("providerName", () => {
  it("turns a provider slug into words, with the usual spellings", () => {
    expect(providerName("aws-parameter-store")).toBe("AWS Parameter Store");
    expect(providerName("github")).toBe("GitHub");
    expect(providerName("cloudflare-pages")).toBe("Cloudflare Pages");
  });
});

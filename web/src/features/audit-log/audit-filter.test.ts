import { describe, expect, it } from "vitest";
import {
  AUDIT_PAGE_SIZE,
  auditSearch,
  readAuditFilter,
  toListQuery,
  windowOf,
  windowProblem,
  writeAuditFilter,
} from "./audit-filter";

const read = (search: string) => readAuditFilter(new URLSearchParams(search));

describe("the audit log filter in the URL", () => {
  it("reads every filter a link carries, and writes it back the same", () => {
    const search =
      "range=24h&actor=i-1&actorType=identity&eventType=update-secret%2Cget-secrets&projectId=p-1&environment=dev&secretPath=%2Fapp&secretKey=DB_URL&userAgentType=cli&eventMetadata=roleId%3Dr-1";
    const filter = read(search);
    expect(filter).toEqual({
      range: "24h",
      actor: "i-1",
      actorType: "identity",
      eventTypes: ["update-secret", "get-secrets"],
      projectId: "p-1",
      environment: "dev",
      secretPath: "/app",
      secretKey: "DB_URL",
      userAgentType: "cli",
      eventMetadata: [{ key: "roleId", value: "r-1" }],
    });
    expect(writeAuditFilter(new URLSearchParams(), filter).toString()).toBe(search);
  });

  it("leaves out what the service would refuse: unknown event, actor and agent types, places without a project", () => {
    const filter = read(
      "eventType=no-such-event,get-secrets&actorType=robot&userAgentType=curl&environment=dev&range=2y",
    );
    expect(filter.eventTypes).toEqual(["get-secrets"]);
    expect(filter.actorType).toBeUndefined();
    expect(filter.userAgentType).toBeUndefined();
    expect(filter.environment).toBeUndefined();
    expect(filter.range).toBe("7d");
  });

  it("keeps the open event and other params when the filter changes", () => {
    const next = writeAuditFilter(new URLSearchParams("event=e-1&range=1h"), {
      ...read("range=1h"),
      eventTypes: ["create-secret"],
    });
    expect(next.get("event")).toBe("e-1");
    expect(next.get("eventType")).toBe("create-secret");
  });

  it("builds links for a resource's activity", () => {
    expect(auditSearch({ projectId: "p", environment: "prod", secretPath: "/", secretKey: "K" })).toBe(
      "?projectId=p&environment=prod&secretPath=%2F&secretKey=K",
    );
    expect(auditSearch({})).toBe("");
  });
});

describe("the window", () => {
  const pinned = Date.parse("2026-11-28T12:00:00.000Z");

  it("ends where it was pinned and starts a preset before", () => {
    expect(windowOf(read("range=1h"), pinned)).toEqual({
      startDate: "2026-11-28T11:00:00.000Z",
      endDate: "2026-11-28T12:00:00.000Z",
    });
  });

  it("takes a custom window as given, open-ended until the pin", () => {
    const filter = read("range=custom&from=2026-11-01T00:00:00Z");
    expect(windowOf(filter, pinned)).toEqual({
      startDate: "2026-11-01T00:00:00.000Z",
      endDate: "2026-11-28T12:00:00.000Z",
    });
  });

  it("says why the service would refuse a window", () => {
    expect(windowProblem({ startDate: "2026-11-02T00:00:00Z", endDate: "2026-11-01T00:00:00Z" })).toMatch(
      /ends before/,
    );
    expect(windowProblem({ startDate: "2026-01-01T00:00:00Z", endDate: "2026-11-01T00:00:00Z" })).toMatch(/90 days/);
    expect(windowProblem({ startDate: "2026-10-01T00:00:00Z", endDate: "2026-11-01T00:00:00Z" })).toBeUndefined();
  });
});

describe("the list query", () => {
  it("asks for one page of the window with the filters, an actor id as an identity's", () => {
    const window = { startDate: "2026-11-27T12:00:00.000Z", endDate: "2026-11-28T12:00:00.000Z" };
    expect(
      toListQuery(read("actor=i-1&eventType=update-secret,delete-secret&projectId=p&secretKey=K"), window, 200),
    ).toEqual({
      ...window,
      offset: 200,
      limit: AUDIT_PAGE_SIZE,
      projectId: "p",
      secretKey: "K",
      actorType: "identity",
      actor: "i-1",
      eventType: "update-secret,delete-secret",
    });
  });
});

describe("View activity links", () => {
  it("open the page filtered to the resource, over the last 30 days", async () => {
    const { activityHref } = await import("@/config/audit-link");
    const href = activityHref({ projectId: "p", environment: "prod", secretPath: "/", secretKey: "DB_URL" });
    const filter = readAuditFilter(new URL(href, "http://console").searchParams);
    expect(href.startsWith("/audit-log?")).toBe(true);
    expect(filter).toMatchObject({
      range: "30d",
      projectId: "p",
      environment: "prod",
      secretPath: "/",
      secretKey: "DB_URL",
    });
    const about = readAuditFilter(
      new URL(
        activityHref({ eventMetadata: { identityId: "i-1" }, eventTypes: ["add-identity-oidc-auth"] }),
        "http://c",
      ).searchParams,
    );
    expect(about.eventMetadata).toEqual([{ key: "identityId", value: "i-1" }]);
    expect(about.eventTypes).toEqual(["add-identity-oidc-auth"]);
  });
});

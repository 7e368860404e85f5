import type { AuditLogStream, BffSession } from "@keyhold/contract";
import { act, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionKeys } from "@/lib/session";
import { errorBody, json, mockFetch, type RecordedRequest } from "@/testing/fetch-mock";
import { session } from "@/testing/fixtures";
import { renderRoutes } from "@/testing/render";
import { OrgSettingsPage } from "./org-settings-page";

afterEach(() => vi.unstubAllGlobals());

const routes = [{ path: "/settings", element: <OrgSettingsPage /> }];
const now = "2026-11-28T10:00:00.000Z";
const stream: AuditLogStream = {
  id: "5a0c7c1e-0000-4000-8000-000000000001",
  orgId: "org",
  createdAt: now,
  updatedAt: now,
  streamMode: "batch",
  filters: null,
  provider: "custom",
  credentials: { url: "https://logs.example.com/in", headers: [{ key: "X-Api-Key", value: "******" }] },
};

type Answer = (request: RecordedRequest) => Response | undefined;

/** The service as the page reads it; `answer` takes a request first when it knows it. */
function server(answer: Answer = () => undefined, streams: AuditLogStream[] = [stream]) {
  return mockFetch((request) => {
    const own = answer(request);
    if (own) return own;
    const path = new URL(request.url, "http://console").pathname;
    if (path === "/api/v1/organization/audit-logs-retention") return json(200, { auditLogsRetentionDays: 90 });
    if (path === "/api/v1/workspace") return json(200, { workspaces: [] });
    if (path === "/api/v1/audit-log-streams") return json(200, { auditLogStreams: streams });
    if (path === "/api/v1/audit-log-streams/status") return json(200, { streams: [] });
    return json(404, errorBody(404, "NotFound", `unexpected ${request.method} ${path}`));
  });
}

function withSession(change: (s: BffSession) => BffSession) {
  const rendered = renderRoutes(routes, { path: "/settings" });
  act(() => rendered.queryClient.setQueryData(sessionKeys.current(), change(session)));
  return rendered;
}

describe("OrgSettingsPage", () => {
  it("tells a member why the settings are not theirs", async () => {
    server();
    withSession((s) => ({ ...s, identity: { ...s.identity, name: "ci-bot", role: "member" } }));
    const note = await screen.findByRole("note");
    expect(note).toHaveTextContent("Only organization admins can use these settings");
    expect(note).toHaveTextContent("You are signed in as ci-bot, whose organization role is member.");
    expect(screen.queryByRole("button", { name: "Verify now" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Streams" })).toBeNull();
  });

  it("says what a server without Keyhold's audit routes lacks, in place of their controls", async () => {
    server();
    withSession((s) => ({
      ...s,
      server: {
        features: [
          { name: "auditChainVerification", available: false, reason: "This server does not verify its audit log." },
          { name: "auditStreamDelivery", available: false, reason: "This server reports no delivery state." },
          { name: "orgAuditRetention", available: false, reason: "This server's plan decides." },
        ],
      },
    }));
    const verification = await screen.findByRole("region", { name: "Chain verification" });
    expect(within(verification).getByRole("note")).toHaveTextContent("This server does not verify its audit log.");
    expect(within(verification).queryByRole("button", { name: "Verify now" })).toBeNull();
    const streams = screen.getByRole("region", { name: "Streams" });
    expect(await within(streams).findByText("This server reports no delivery state.")).toBeVisible();
    expect(within(streams).queryByRole("button", { name: /^Send test event/ })).toBeNull();
    expect(screen.queryByLabelText("Organization default (days)")).toBeNull();
  });

  it("shows the ping's failure on the form, which stays open with what was typed", async () => {
    server((request) =>
      request.method === "POST" && request.url.endsWith("/api/v1/audit-log-streams/custom")
        ? json(
            400,
            errorBody(400, "BadRequest", "Failed to connect with upstream source: connect ECONNREFUSED 127.0.0.1:9"),
          )
        : undefined,
    );
    const { user } = renderRoutes(routes, { path: "/settings" });
    await user.click(await screen.findByRole("button", { name: "Add stream" }));
    const dialog = await screen.findByRole("dialog", { name: "Add stream" });
    await user.type(within(dialog).getByLabelText("URL"), "http://127.0.0.1:9/in");
    await user.click(within(dialog).getByRole("button", { name: "Add stream" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Failed to connect with upstream source: connect ECONNREFUSED 127.0.0.1:9",
    );
    expect(within(dialog).getByLabelText("URL")).toHaveValue("http://127.0.0.1:9/in");
  });

  it("puts the server's refusal of the URL on the URL field", async () => {
    server((request) =>
      request.method === "PATCH"
        ? json(
            422,
            errorBody(422, "ValidationFailure", [
              { code: "invalid_format", path: ["credentials", "url"], message: "Invalid URL" },
            ]),
          )
        : undefined,
    );
    const { user } = renderRoutes(routes, { path: "/settings" });
    await user.click(await screen.findByRole("button", { name: `Edit stream ${stream.credentials.url}` }));
    const dialog = await screen.findByRole("dialog", { name: "Edit stream" });
    await user.click(within(dialog).getByRole("button", { name: "Save stream" }));
    expect(within(dialog).getByLabelText("URL")).toHaveAccessibleDescription("Invalid URL");
  });

  it("shows an empty state with the way to add the first stream", async () => {
    server(undefined, []);
    renderRoutes(routes, { path: "/settings" });
    const streams = await screen.findByRole("region", { name: "Streams" });
    expect(await within(streams).findByRole("heading", { name: "No streams yet" })).toBeVisible();
    expect(within(streams).getByRole("button", { name: "Add stream" })).toBeVisible();
  });
});

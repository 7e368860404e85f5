import { AuditLogSchema } from "@keyhold/contract";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, exportChunk } from "./export";

const event = AuditLogSchema.parse({
  id: "e-1",
  ipAddress: "10.0.0.1",
  userAgent: "keyhold-cli/1.0",
  userAgentType: "cli",
  expiresAt: "2027-02-26T12:00:00.000Z",
  createdAt: "2026-11-28T12:00:00.000Z",
  updatedAt: "2026-11-28T12:00:00.000Z",
  orgId: "o-1",
  projectId: "p-1",
  projectName: "Payments",
  event: { type: "update-secret", metadata: { environment: "prod", secretPath: "/", secretKey: "=HYPERLINK(1)" } },
  actor: {
    type: "identity",
    metadata: { name: "ci", identityId: "i-1", authMethod: "oidc-auth", oidc: { claims: { email: "a@b.c" } } },
  },
  requestId: "req-1",
});

describe("export files", () => {
  it("writes CSV rows with metadata as JSON text, and escapes cells a spreadsheet would run", () => {
    const text =
      exportChunk([event, { ...event, id: "e-2" }], "csv", true) + exportChunk([{ ...event, id: "e-3" }], "csv", false);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    expect(parsed.data.map((row) => row.id)).toEqual(["e-1", "e-2", "e-3"]);
    const row = parsed.data[0] as Record<string, string>;
    expect(row).toMatchObject({
      eventType: "update-secret",
      actorName: "ci",
      actorId: "i-1",
      actorEmail: "a@b.c",
      environment: "prod",
      requestId: "req-1",
      secretKey: "'=HYPERLINK(1)",
    });
    expect(JSON.parse(row.eventMetadata as string)).toEqual(event.event.metadata);
  });

  it("writes JSON as one array over every page", () => {
    const text = `${exportChunk([event], "json", true)}${exportChunk([{ ...event, id: "e-2" }], "json", false)}${exportChunk([], "json", false)}\n]\n`;
    expect((JSON.parse(text) as { id: string }[]).map((item) => item.id)).toEqual(["e-1", "e-2"]);
    expect(JSON.parse(`${exportChunk([], "json", true)}\n]\n`)).toEqual([]);
  });
});

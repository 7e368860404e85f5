import { endpointList } from "@keyhold/contract";
import { AUDIT_EVENT_TYPES } from "@keyhold/contract/audit-event-types";
import { WRITTEN_AUDIT_EVENT_TYPES } from "@keyhold/contract/audit-events-written";
import { describe, expect, it } from "vitest";
import { auditEventTable, declarationOf, declaresEvent } from "./declarations.ts";

const table = auditEventTable as Record<string, unknown>;

describe("the audit event table", () => {
  it("declares, for every endpoint of the contract, the event it records or why it records none", () => {
    const problems: string[] = [];
    for (const endpoint of endpointList) {
      const declaration = table[endpoint.id] as Parameters<typeof declaresEvent>[0] | undefined;
      if (!declaration) {
        problems.push(`${endpoint.id} (${endpoint.method} ${endpoint.path}) has no entry in auditEventTable`);
      } else if (declaresEvent(declaration)) {
        if (!(AUDIT_EVENT_TYPES as readonly string[]).includes(declaration.type)) {
          problems.push(`${endpoint.id} declares "${declaration.type}", which is not in AUDIT_EVENT_TYPES`);
        }
        if (declaration.failure && !(AUDIT_EVENT_TYPES as readonly string[]).includes(declaration.failure.type)) {
          problems.push(`${endpoint.id} declares failure "${declaration.failure.type}", not in AUDIT_EVENT_TYPES`);
        }
      } else if (declaration.none.trim().length < 10 || /to be declared/i.test(declaration.none)) {
        problems.push(`${endpoint.id} records no event without saying why ("${declaration.none}")`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("writes exactly the event types the contract says it writes (the console lists those first)", () => {
    const declared = new Set<string>();
    for (const endpoint of endpointList) {
      const declaration = table[endpoint.id] as Parameters<typeof declaresEvent>[0];
      if (!declaresEvent(declaration)) continue;
      declared.add(declaration.type);
      if (declaration.failure) declared.add(declaration.failure.type);
    }
    expect([...declared].sort()).toEqual([...WRITTEN_AUDIT_EVENT_TYPES].sort());
  });

  it("has no entry for an endpoint the contract does not have", () => {
    const ids = new Set<string>(endpointList.map((e) => e.id));
    expect(Object.keys(table).filter((id) => !ids.has(id))).toEqual([]);
  });

  it("names the endpoint when asked for one it does not know", () => {
    expect(() => declarationOf("no.suchEndpoint" as never)).toThrow(/no\.suchEndpoint declares no audit event/);
  });

  it("records every change: each endpoint that is not a GET declares an event, except those that change nothing", () => {
    // Sending a stream a test event changes nothing stored; searching identities is a POST that reads.
    const changesNothing = new Set(["auditLogStreams.test", "identities.search"]);
    const silent = endpointList
      .filter((e) => e.method !== "GET" && !changesNothing.has(e.id))
      .filter((e) => !declaresEvent(table[e.id] as Parameters<typeof declaresEvent>[0]))
      .map((e) => e.id);
    expect(silent).toEqual([]);
  });

  it("records a refused sign-in on every sign-in endpoint that checks a credential", () => {
    const logins = endpointList.filter((e) => e.id.endsWith(".login"));
    expect(logins.length).toBe(4);
    for (const login of logins) {
      const declaration = table[login.id] as Parameters<typeof declaresEvent>[0];
      expect(declaresEvent(declaration) && declaration.failure?.type, login.id).toMatch(/^login-identity-.*-failed$/);
    }
  });
});

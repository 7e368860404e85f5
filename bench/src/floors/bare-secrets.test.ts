import { buildPath, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, listPath, secretKeyOf, startSecretsFloor } from "../cases/secrets-list.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { testContext } from "../lib/test-context.ts";

const COUNT = 300;

/** One request's status, content type and exact bytes. */
async function answer(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: Buffer.from(await response.arrayBuffer()).toString("utf8"),
  };
}

/** A folder of COUNT secrets through the API: comments, tags, metadata, multiline and non-ASCII values. */
async function seed(service: RunningService): Promise<string> {
  const created = endpoints["projects.create"].response.parse(
    await call(service, "POST", endpoints["projects.create"].path, { projectName: "Floor", slug: "floor" }),
  );
  const projectId = created.project.id;
  const tagIds: string[] = [];
  for (const slug of ["backend", "alpha", "zeta"]) {
    const tag = endpoints["tags.create"].response.parse(
      await call(service, "POST", buildPath(endpoints["tags.create"].path, { workspaceId: projectId }), {
        slug,
        color: "#112233",
      }),
    );
    tagIds.push(tag.workspaceTag.id);
  }
  const values = ["plain", "line one\nline two\nline three\n", "mot de passe: é ü ß 東京 🔑", ""];
  for (let n = 0; n < COUNT; n++) {
    await call(service, "POST", buildPath(endpoints["secrets.create"].path, { secretName: secretKeyOf(n) }), {
      workspaceId: projectId,
      environment: "dev",
      secretPath: "/",
      secretValue: `${values[n % values.length]}${n % 4 === 3 ? "" : ` ${n}`}`,
      ...(n % 3 === 0 && { secretComment: `rotated by the platform team, batch ${n} — ok` }),
      ...(n % 5 === 0 && { tagIds: tagIds.slice(0, 1 + (n % 3)) }),
      ...(n % 7 === 0 && { secretMetadata: [{ key: "owner", value: `team-${n}` }] }),
      ...(n % 11 === 0 && { skipMultilineEncoding: true, secretReminderNote: "rotate", secretReminderRepeatDays: 30 }),
    });
  }
  return projectId;
}

/**
 * The listing floor must do the service's work to be a floor: answer the same list with 200 and
 * the very bytes the service sends (every value and comment decrypted), and refuse a forged token.
 */
describe.each([
  { database: "SQLite", postgres: false },
  { database: "PostgreSQL", postgres: true },
])("the secrets-listing floor on $database", ({ postgres }) => {
  const context = testContext();
  let service: RunningService;
  let floorUrl: string;
  let path: string;

  beforeAll(async () => {
    if (postgres && !context.postgresUrl) throw new Error("KEYHOLD_TEST_DATABASE_URL is not set");
    service = await startService(context, { postgres });
    path = listPath(await seed(service));
    floorUrl = await startSecretsFloor(context, service);
  });
  afterAll(() => context.close());

  it("answers 200 with the service's own bytes", async () => {
    const headers = { authorization: `Bearer ${service.adminToken}` };
    const measured = await answer(`${service.url}${path}`, headers);
    const floor = await answer(`${floorUrl}${path}`, headers);
    expect(measured.status).toBe(200);
    expect((JSON.parse(measured.body) as { secrets: unknown[] }).secrets).toHaveLength(COUNT);
    expect(measured.body).toContain("東京 🔑");
    expect(measured.body).toContain("line one\\nline two");
    expect(floor).toEqual(measured);
  });

  it("refuses a token whose signature does not hold, as the service does", async () => {
    const [header, payload, signature = ""] = service.adminToken.split(".");
    const forged = `${header}.${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    const headers = { authorization: `Bearer ${forged}` };
    // Infisical answers 403 to a token that is not its own (401 is for revoked or used-up ones).
    expect((await answer(`${service.url}${path}`, headers)).status).toBe(403);
    expect((await answer(`${floorUrl}${path}`, headers)).status).toBe(403);
  });
});

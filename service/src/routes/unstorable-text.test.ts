import {
  type AnyEndpoint,
  type EndpointId,
  type Endpoints,
  endpointList,
  endpoints,
  ErrorBodySchema,
  NoBody,
} from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { identityWithToken } from "../test/fixtures.ts";
import { type CallResult, describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer } from "../test/loopback.ts";
import { seedCustomRole, seedProject } from "../test/project-seed.ts";
import { createFolder, createSecret, createTag } from "../test/secret-fixtures.ts";

/**
 * Every string that any contract endpoint accepts, in its path, its query and its body at any
 * depth, sent with control characters in it: no answer is a 5xx, on either database. NUL (which
 * PostgreSQL cannot store) and an unpaired surrogate (which has no UTF-8 form) are refused with
 * a 422 naming the field; tabs, line breaks and the other controls go as far as the rest of the
 * input lets them. Every number it accepts is sent past what PostgreSQL's `integer` holds (a
 * column every one of them is kept in or compared with), past what a double keeps exact, and as
 * a fraction: each is refused with a 422 naming the field; the column's own ends are no 5xx
 * either. The endpoints come from the contract's table and their fields from its zod schemas,
 * so a new endpoint is walked without being listed here; one whose fields cannot be filled in
 * from the names below fails until given a baseline.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: Json[];
  const?: Json;
  default?: Json;
  format?: string;
  pattern?: string;
  minimum?: number;
}

interface Input {
  params: Record<string, Json>;
  query: Record<string, Json>;
  body: Json | undefined;
}

/** A character put into the middle of each string in turn. */
interface Probe {
  name: string;
  text: string;
  /** Refused with a 422 naming the field wherever it is sent. */
  refused: "everywhere" | "in the body" | "never";
}

const probes: Probe[] = [
  { name: "NUL", text: "\0", refused: "everywhere" },
  { name: "tab", text: "\t", refused: "never" },
  { name: "line feed", text: "\n", refused: "never" },
  { name: "carriage return", text: "\r", refused: "never" },
  { name: "U+0001", text: "\x01", refused: "never" },
  { name: "escape", text: "\x1b", refused: "never" },
  { name: "U+001F", text: "\x1f", refused: "never" },
  { name: "delete", text: "\x7f", refused: "never" },
  // In a URL an unpaired surrogate can only be written as bytes that are not UTF-8 (below).
  { name: "unpaired surrogate", text: "\uD800", refused: "in the body" },
];

/** Bytes that are not UTF-8 (an overlong form, a byte never used, an encoded surrogate), in a URL. */
const undecodable = ["%C0", "%FF", "%ED%A0%80"];

/** A number put in place of each number in turn. */
interface NumberProbe {
  name: string;
  value: number;
  /** Refused with a 422 naming the field: past an `integer` column's range, or a fraction where whole numbers go. */
  refused: "always" | "where whole" | "never";
}

const numberProbes: NumberProbe[] = [
  // The ends of PostgreSQL's `integer`: a field may refuse them, but nothing it does with them is a 5xx.
  { name: "2^31 - 1", value: 2 ** 31 - 1, refused: "never" },
  { name: "-2^31", value: -(2 ** 31), refused: "never" },
  { name: "2^31", value: 2 ** 31, refused: "always" },
  { name: "-2^31 - 1", value: -(2 ** 31) - 1, refused: "always" },
  { name: "2^53", value: 2 ** 53, refused: "always" },
  { name: "1e308", value: 1e308, refused: "always" },
  { name: "a fraction", value: 1.5, refused: "where whole" },
];

/** Every path in a JSON value that holds a string. */
function stringPaths(value: Json | undefined, at: Path = []): Path[] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...at, i]));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

/**
 * Every path in a schema that holds a number once parsed (a query's numbers arrive as text, so
 * the schema is read as its output), and whether it takes whole numbers only.
 */
function numberPaths(schema: JsonSchema, at: Path = []): { path: Path; integer: boolean }[] {
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const here = types.includes("integer") ? [{ path: at, integer: true }] : [];
  if (types.includes("number")) here.push({ path: at, integer: false });
  return [
    ...here,
    ...Object.entries(schema.properties ?? {}).flatMap(([key, property]) => numberPaths(property, [...at, key])),
    ...(schema.items ? numberPaths(schema.items, [...at, 0]) : []),
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((option) => numberPaths(option, at)),
  ].filter(
    (found, i, all) => all.findIndex((other) => JSON.stringify(other.path) === JSON.stringify(found.path)) === i,
  );
}

function changedAt(value: Json, path: Path, change: (old: Json) => Json): Json {
  const [head, ...rest] = path;
  if (head === undefined) return change(value);
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? changedAt(item, rest, change) : item));
  const record = value as Record<string, Json>;
  return { ...record, [head]: changedAt(record[head] as Json, rest, change) };
}

const insert = (text: string, inserted: string) =>
  text.slice(0, Math.ceil(text.length / 2)) + inserted + text.slice(Math.ceil(text.length / 2));

let generated = 0;

/** A value the schema accepts: a seeded one where the field's name says which, else the simplest. */
function sample(schema: JsonSchema, name: string | undefined, known: Record<string, Json>): Json | undefined {
  const seeded = name === undefined ? undefined : known[name];
  if (seeded !== undefined && accepts(schema, seeded)) return seeded;
  if (schema.const !== undefined) return schema.const;
  // An empty list by default would leave its items out.
  if (schema.default !== undefined && !(Array.isArray(schema.default) && schema.default.length === 0)) {
    return schema.default;
  }
  if (schema.enum) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const chosen = options.find((option) => option.type !== "null") ?? options[0];
    return chosen ? sample(chosen, name, known) : undefined;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
          const value = sample(property, key, known);
          return value === undefined ? [] : [[key, value]];
        }),
      );
    case "array": {
      const item = schema.items ? sample(schema.items, undefined, known) : undefined;
      return item === undefined ? [] : [item];
    }
    case "string":
      if (schema.format === "uuid") return crypto.randomUUID();
      if (schema.format === "email") return "someone@example.com";
      if (schema.format === "uri") return "https://example.com/";
      if (schema.format === "date-time") return new Date().toISOString();
      if (schema.pattern) {
        const pattern = new RegExp(schema.pattern, "u");
        // Numbered, so that endpoints creating something by slug do not collide with each other.
        return [`text-${++generated}`, "text", "dGV4dA=="].find((candidate) => pattern.test(candidate)) ?? "text";
      }
      return "text";
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return false;
    default:
      return undefined;
  }
}

/** Whether a seeded value is of a type the schema takes (`secretPath` is a string here, a condition there). */
function accepts(schema: JsonSchema, value: Json): boolean {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return options.some((option) => accepts(option, value));
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return types.length === 0 || types.includes(type) || (type === "number" && types.includes("integer"));
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

type Fields = Record<string, Json | undefined>;

/** Seeded values by field name, and per endpoint what a name alone cannot say (undefined: left out). */
interface Seeds {
  known: Record<string, Json>;
  overrides: Partial<Record<EndpointId, { params?: Fields; query?: Fields; body?: Fields }>>;
}

function merged(generated: Record<string, Json>, override: Fields | undefined): Record<string, Json> {
  const entries = Object.entries({ ...generated, ...override });
  return Object.fromEntries(entries.filter((entry): entry is [string, Json] => entry[1] !== undefined));
}

/**
 * A JSON schema does not say everything a zod schema checks (a `stringbool` reads as any
 * string): where the schema names the values it takes, the first is used.
 */
function withNamedValues(schema: z.ZodType, value: Json): Json {
  for (let pass = 0; pass < 5; pass++) {
    const parsed = schema.safeParse(value);
    const named = parsed.error?.issues.filter((issue) => issue.code === "invalid_value") ?? [];
    if (named.length === 0) break;
    for (const issue of named) value = changedAt(value, issue.path as Path, () => issue.values[0] as Json);
  }
  return value;
}

function baselineOf(endpoint: AnyEndpoint, seeds: Seeds): Input {
  const part = (schema: z.ZodType) =>
    withNamedValues(schema, sample(jsonSchemaOf(schema), undefined, seeds.known) ?? {}) as Record<string, Json>;
  const override = seeds.overrides[endpoint.id as EndpointId] ?? {};
  return {
    params: merged(part(endpoint.params), override.params),
    query: merged(part(endpoint.query), override.query),
    body: endpoint.body === NoBody ? undefined : merged(part(endpoint.body), override.body),
  };
}

const encode = (value: Json) => encodeURIComponent(String(value));

/** The URL of a call, with one parameter (path or query) written as `raw` (already encoded). */
function urlOf(endpoint: AnyEndpoint, input: Input, raw?: { name: string; text: string }): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    raw?.name === name ? raw.text : encode(input.params[name] ?? ""),
  );
  const query = Object.entries(input.query)
    .map(([name, value]) => `${encode(name)}=${raw?.name === name ? raw.text : encode(value)}`)
    .join("&");
  return query ? `${path}?${query}` : path;
}

async function send(svc: TestService, endpoint: AnyEndpoint, url: string, body: Json | undefined): Promise<CallResult> {
  return svc.call(endpoint.method, url, {
    ...(body !== undefined && {
      payload: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    }),
  });
}

/**
 * The endpoints in the contract's order, then the deletions in reverse (a resource before the
 * one it belongs to), the project and the identity last: a probe that a schema trims away
 * deletes what it names, and what later endpoints read.
 */
const destroysSeeds = new Set<string>(["projects.delete", "identities.delete"]);
const contractOrder = endpointList as readonly AnyEndpoint[];
const ordered = [
  ...contractOrder.filter((e) => e.method !== "DELETE"),
  ...contractOrder.filter((e) => e.method === "DELETE" && !destroysSeeds.has(e.id)).reverse(),
  ...contractOrder.filter((e) => destroysSeeds.has(e.id)),
];

function answer<I extends EndpointId>(id: I, res: CallResult): z.output<Endpoints[I]["response"]> {
  expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBe(200);
  return endpoints[id].response.parse(res.body) as z.output<Endpoints[I]["response"]>;
}

async function seed(svc: TestService, peer: LoopbackPeer): Promise<Seeds> {
  const orgId = svc.info.orgId;
  const projectId = await seedProject(svc, "Text probes");
  const project = answer("projects.get", await svc.endpoint("projects.get", { params: { workspaceId: projectId } }));
  const projectSlug = project.workspace.slug;
  const environment = answer(
    "environments.create",
    await svc.endpoint("environments.create", {
      params: { workspaceId: projectId },
      body: { name: "Probed", slug: "probed" },
    }),
  ).environment;
  const place = { workspaceId: projectId, environment: "dev" };
  const folder = await createFolder(svc, place, "/", "probed");
  const secretName = "PROBED_SECRET";
  const secretId = await createSecret(svc, { ...place, secretPath: "/" }, secretName);
  const tagSlug = "probed-tag";
  const tagId = await createTag(svc, projectId, tagSlug);
  const secretImport = answer(
    "secretImports.create",
    await svc.endpoint("secretImports.create", {
      body: { ...place, path: "/", import: { environment: "staging", path: "/" } },
    }),
  ).secretImport;
  const roleSlug = "probed-role";
  const roleId = await seedCustomRole(svc, projectId, {
    slug: roleSlug,
    name: "Probed role",
    permissions: [{ subject: "secrets", action: ["read"] }],
  });

  const identityName = "probed";
  const { identityId, token } = await identityWithToken(svc, { name: identityName, role: "member" });
  answer(
    "identityMemberships.add",
    await svc.endpoint("identityMemberships.add", {
      params: { projectId, identityId },
      body: { roles: [{ role: "viewer", isTemporary: false }] },
    }),
  );
  const tokenId = answer("tokenAuth.listTokens", await svc.endpoint("tokenAuth.listTokens", { params: { identityId } }))
    .tokens[0]?.id;
  const universal = answer(
    "universalAuth.attach",
    await svc.endpoint("universalAuth.attach", { params: { identityId }, body: {} }),
  ).identityUniversalAuth;
  const clientSecret = answer(
    "universalAuth.createClientSecret",
    await svc.endpoint("universalAuth.createClientSecret", { params: { identityId }, body: {} }),
  );
  const methods = {
    // No reviewer JWT: the token signing in is sent to review itself.
    kubernetesAuth: {
      kubernetesHost: peer.url,
      allowedNamespaces: "probed",
      allowedNames: "probed",
      allowedAudience: "probed",
    },
    oidcAuth: { oidcDiscoveryUrl: peer.url, boundIssuer: peer.url },
    awsAuth: { stsEndpoint: peer.url },
  } as const;
  answer(
    "kubernetesAuth.attach",
    await svc.endpoint("kubernetesAuth.attach", { params: { identityId }, body: methods.kubernetesAuth }),
  );
  answer("oidcAuth.attach", await svc.endpoint("oidcAuth.attach", { params: { identityId }, body: methods.oidcAuth }));
  answer("awsAuth.attach", await svc.endpoint("awsAuth.attach", { params: { identityId }, body: methods.awsAuth }));

  const rule = { subject: "secrets", action: "read", conditions: { environment: "dev", secretPath: { $glob: "/**" } } };
  const privilege = answer(
    "identityPrivileges.create",
    await svc.endpoint("identityPrivileges.create", {
      body: { identityId, projectId, slug: "probed-privilege", permissions: [rule] },
    }),
  ).privilege;
  const integrationAuth = answer(
    "integrationAuths.create",
    await svc.endpoint("integrationAuths.create", {
      body: { workspaceId: projectId, integration: "github", accessToken: "probed-token" },
    }),
  ).integrationAuth;
  const integration = answer(
    "integrations.create",
    await svc.endpoint("integrations.create", {
      body: { integrationAuthId: integrationAuth.id, sourceEnvironment: "dev", app: "probed" },
    }),
  ).integration;

  // A signed STS request as AWS's SDKs send it: only the region in its credential scope is read
  // before the call goes out.
  const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
  const stsHeaders = {
    Authorization: "AWS4-HMAC-SHA256 Credential=AKIA/20250101/us-east-1/sts/aws4_request, Signature=0",
    "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
  };

  return {
    known: {
      orgId,
      organizationId: orgId,
      workspaceId: projectId,
      projectId,
      workspaceSlug: projectSlug,
      projectSlug,
      identityId,
      environment: "dev",
      sourceEnvironment: "dev",
      secretPath: "/",
      path: "/",
      directory: "/",
      secretName,
      newSecretName: secretName,
      secretId,
      folderId: folder.id,
      tagId,
      tagIds: [tagId],
      tagSlugs: tagSlug,
      roleId,
      roleSlug,
      role: "viewer",
      roleSlugs: ["viewer"],
      privilegeSlug: privilege.slug,
      secretImportId: secretImport.id,
      integrationAuthId: integrationAuth.id,
      integrationId: integration.id,
      integration: "github",
      tokenId: tokenId ?? null,
      clientSecretId: clientSecret.clientSecretData.id,
      clientId: universal.clientId,
      clientSecret: clientSecret.clientSecret,
      accessToken: token,
      permissions: [rule],
      actions: ["read"],
      subject: "secrets",
      temporaryRange: "1h",
      ipAddress: "0.0.0.0/0",
      kubernetesHost: peer.url,
      tokenReviewerJwt: null,
      oidcDiscoveryUrl: peer.url,
      boundIssuer: peer.url,
      stsEndpoint: peer.url,
      jwt: "e30.e30.c2ln",
      iamRequestHeaders: base64(stsHeaders),
      iamRequestBody: Buffer.from("Action=GetCallerIdentity&Version=2011-06-15").toString("base64"),
      iamRequestUrl: Buffer.from("https://sts.amazonaws.com/").toString("base64"),
      iamHttpRequestMethod: "POST",
      template: "default",
    },
    overrides: {
      "identities.create": { body: { role: "member" } },
      "identities.update": { body: { name: identityName, role: "member" } },
      // This service has no external KMS: any key is refused before the rest is looked at.
      "projects.create": { body: { kmsKeyId: undefined } },
      "environments.update": {
        params: { id: environment.id },
        body: { name: environment.name, slug: environment.slug },
      },
      "environments.delete": { params: { id: environment.id } },
      "identityPrivileges.update": { params: { id: privilege.id }, body: { slug: privilege.slug } },
      "identityPrivileges.get": { params: { id: privilege.id } },
      "identityPrivileges.delete": { params: { id: privilege.id } },
      "projects.update": { body: { name: project.workspace.name, slug: projectSlug } },
      "projectRoles.update": { body: { slug: roleSlug } },
      "folders.update": { body: { name: folder.name } },
      "secretImports.create": { body: { import: { environment: "staging", path: "/" } } },
      "secretImports.update": { body: { import: { environment: "staging", path: "/" } } },
      "auditLogs.listOrg": {
        query: { projectId, eventType: "create-secret", eventMetadata: `secretKey=${secretName}` },
      },
      "auditLogs.listProject": { query: { eventType: "create-secret", eventMetadata: `secretKey=${secretName}` } },
    },
  };
}

it("finds the numbers in every part of an endpoint's input", () => {
  const found = (id: EndpointId, where: "params" | "query" | "body") =>
    numberPaths(jsonSchemaOf(endpoints[id][where], "output")).map(({ path }) => path.join("."));
  expect(found("tokenAuth.update", "body")).toContain("accessTokenNumUsesLimit");
  expect(found("secretImports.update", "body")).toEqual(["import.position"]);
  expect(found("secrets.get", "query")).toEqual(["version"]);
  // A string on the wire, a number once parsed.
  expect(found("tokenAuth.listTokens", "query")).toEqual(["offset", "limit"]);
});

describeEachDatabase("text and numbers that no database can store, in every field of every endpoint", (kind) => {
  let svc: TestService;
  let peer: LoopbackPeer;
  let seeds: Seeds;

  beforeAll(async () => {
    // Stands in for the Kubernetes API, the OIDC issuer and STS: it refuses everything.
    peer = await startLoopbackPeer(() => ({ status: 401, body: { message: "refused" } }));
    svc = await startService({ kind, logLevel: "warn" });
    seeds = await seed(svc, peer);
  });
  afterAll(async () => {
    await svc?.close();
    await peer?.close();
  });

  for (const endpoint of ordered) {
    it(`${endpoint.method} ${endpoint.path} (${endpoint.id})`, async () => {
      const baseline = baselineOf(endpoint, seeds);
      for (const [part, value] of [
        ["params", baseline.params],
        ["query", baseline.query],
        ["body", baseline.body],
      ] as const) {
        const parsed = endpoint[part].safeParse(value);
        expect(parsed.success, `the ${part} baseline of ${endpoint.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(
          true,
        );
      }

      const wrong: string[] = [];
      const check = (res: CallResult, where: string, field: Path, sent: string, refusal: boolean) => {
        const said = `${where} ${JSON.stringify(field)} with ${sent}: ${res.status} ${JSON.stringify(res.body)}`;
        if (res.status >= 500) wrong.push(said);
        else if (refusal) {
          const error = ErrorBodySchema.safeParse(res.body);
          const issues = error.success && Array.isArray(error.data.message) ? error.data.message : [];
          const named = issues.some(
            (issue) => JSON.stringify((issue as { path?: unknown }).path) === JSON.stringify(field),
          );
          if (res.status !== 422 || !named) wrong.push(`${said} (expected a 422 naming the field)`);
        }
      };

      for (const where of ["params", "query"] as const) {
        for (const [name, value] of Object.entries(baseline[where])) {
          if (typeof value !== "string") continue;
          for (const probe of probes) {
            if (probe.refused === "in the body") continue;
            const text = encodeURIComponent(insert(value, probe.text));
            const res = await send(svc, endpoint, urlOf(endpoint, baseline, { name, text }), baseline.body);
            check(res, where, [name], probe.name, probe.refused === "everywhere");
          }
          for (const bytes of undecodable) {
            const text = encode(value) + bytes;
            const res = await send(svc, endpoint, urlOf(endpoint, baseline, { name, text }), baseline.body);
            check(res, where, [name], "bytes that are not UTF-8", false);
          }
        }
      }
      if (baseline.body !== undefined) {
        const url = urlOf(endpoint, baseline);
        for (const field of stringPaths(baseline.body)) {
          for (const probe of probes) {
            const body = changedAt(baseline.body, field, (text) => insert(text as string, probe.text));
            check(await send(svc, endpoint, url, body), "body", field, probe.name, probe.refused !== "never");
          }
        }
      }

      for (const where of ["params", "query", "body"] as const) {
        for (const { path, integer } of numberPaths(jsonSchemaOf(endpoint[where], "output"))) {
          for (const probe of numberProbes) {
            const inBody = where === "body";
            const raw = inBody ? undefined : { name: String(path[0]), text: encode(probe.value) };
            const body = inBody ? changedAt(baseline.body ?? {}, path, () => probe.value) : baseline.body;
            const res = await send(svc, endpoint, urlOf(endpoint, baseline, raw), body);
            check(
              res,
              where,
              path,
              probe.name,
              probe.refused === "always" || (integer && probe.refused === "where whole"),
            );
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

import type { EndpointId } from "@keyhold/contract";
import { legacyStreamRoutes } from "./audit-streams.ts";
import { searchIdentityList } from "./identity-search.ts";
import type { ServerFeature } from "./rules.ts";

/** A path parameter an older route needs and the contract's parameters do not carry. */
export interface ResolvedParam {
  /** The read that yields it (a GET of the contract, on the same upstream). */
  via: EndpointId;
  /** That read's path parameters, from the contract parameters (and the query) of the call. */
  params: (params: Record<string, unknown>, query: URLSearchParams) => Record<string, unknown>;
  /** The value, from that read's (normalised) body. */
  pick: (body: unknown) => unknown;
}

/** Where an older server serves the same operation (with the same body and answer unless said). */
export interface OlderRoute {
  path: string;
  resolve?: Record<string, ResolvedParam>;
  /**
   * The body as the older route takes it. `current` is the record as the older server holds it
   * (read with `current.via`, raw, never sent to the browser), when `current.needed` says the
   * body needs it.
   */
  body?: (body: unknown, current: unknown) => unknown;
  current?: { via: EndpointId; needed: (body: unknown) => boolean };
  /** A successful older answer in the contract's envelope, when the envelopes differ. */
  answer?: (json: unknown) => unknown;
  /** The query as the older route takes it, with the resolved parameters; the call's own unless said. */
  query?: (query: URLSearchParams, resolved: Record<string, unknown>) => URLSearchParams;
}

const projectSlugFromId: ResolvedParam = {
  via: "projects.get",
  params: (params) => ({ workspaceId: params.projectId }),
  pick: (body) => (body as { workspace?: { slug?: unknown } }).workspace?.slug,
};

/** The project the call's query names by id, as its slug. */
const projectSlugFromQuery: ResolvedParam = {
  via: "projects.get",
  params: (_params, query) => ({ workspaceId: query.get("projectId") ?? "" }),
  pick: projectSlugFromId.pick,
};

/**
 * Operations whose contract path is newer than some supported servers: when the contract path
 * answers "route not found", the older path is used, and remembered for that upstream.
 */
export const olderRoutes: Partial<Record<EndpointId, OlderRoute>> = {
  // Servers of 2024 address project roles by project slug, under v1 (recorded: 059, 087).
  "projectRoles.create": { path: "/api/v1/workspace/{projectSlug}/roles", resolve: { projectSlug: projectSlugFromId } },
  // ...and so do their role list, read by slug, update and delete (recorded: 061–065).
  "projectRoles.list": { path: "/api/v1/workspace/{projectSlug}/roles", resolve: { projectSlug: projectSlugFromId } },
  "projectRoles.getBySlug": {
    path: "/api/v1/workspace/{projectSlug}/roles/slug/{roleSlug}",
    resolve: { projectSlug: projectSlugFromId },
  },
  "projectRoles.update": {
    path: "/api/v1/workspace/{projectSlug}/roles/{roleId}",
    resolve: { projectSlug: projectSlugFromId },
  },
  "projectRoles.delete": {
    path: "/api/v1/workspace/{projectSlug}/roles/{roleId}",
    resolve: { projectSlug: projectSlugFromId },
  },
  // Servers of 2024 set a project's audit retention by slug and answer the project as `workspace`
  // (recorded: 2024 054; mid-2026 058 answers it as `project`).
  "projects.updateAuditLogsRetention": {
    path: "/api/v1/workspace/{projectSlug}/audit-logs-retention",
    resolve: { projectSlug: projectSlugFromId },
    answer: (body) => {
      const { workspace, ...rest } = (body ?? {}) as { workspace?: unknown };
      return workspace === undefined ? body : { ...rest, project: workspace };
    },
  },
  // Servers of 2024 list an identity's privileges only under v1, by project slug (recorded: 2024
  // 080; the v2 routes are absent, 085–088). Their list carries each privilege's rules, which the
  // v2 list leaves out: the console then needs no read per privilege (which they lack by id).
  "identityPrivileges.list": {
    path: "/api/v1/additional-privilege/identity",
    resolve: { projectSlug: projectSlugFromQuery },
    query: (query, resolved) => {
      const next = new URLSearchParams({ identityId: query.get("identityId") ?? "" });
      next.set("projectSlug", String(resolved.projectSlug));
      return next;
    },
  },
  ...legacyStreamRoutes,
};

/** An operation some servers lack, whose answer the BFF works out from a read they do have. */
export interface DerivedRoute {
  /** The read older servers have (a GET of the contract, on the same upstream). */
  via: EndpointId;
  /** That read's query, from the session's organisation. */
  query: (orgId: string) => Record<string, string>;
  /** The operation's answer, from the call's (parsed) body and the read's (normalised) answer. */
  answer: (body: unknown, viaAnswer: unknown) => unknown;
}

/**
 * Operations answered from another read when the upstream says "route not found" (and from then
 * on, for that upstream).
 */
export const derivedRoutes: Partial<Record<EndpointId, DerivedRoute>> = {
  // Servers without the search route (2024's; the recorded 2026 set has no search call either)
  // list the whole organisation; the page asked for is searched, ordered and cut from that list.
  "identities.search": { via: "identities.list", query: (orgId) => ({ orgId }), answer: searchIdentityList },
};

/**
 * An org-wide list that some servers refuse to identities on its contract path, though they list
 * the same records to identities on an older path: its records give the ids, and each record is
 * then read through the contract (so it arrives whole and normalised like any other answer).
 */
export interface ListThenRead {
  /** The older org-wide list, `{orgId}` from the session. */
  listPath: string;
  ids: (body: unknown) => string[];
  /** The contract read of one record, and the record in its answer. */
  read: EndpointId;
  readParams: (id: string) => Record<string, string>;
  pick: (body: unknown) => unknown;
  /** The operation's answer, from the records read. */
  answer: (records: unknown[]) => unknown;
}

/**
 * Operations answered through an older list when the upstream refuses the contract path with
 * 403 (and from then on, for that upstream, once the older list has answered).
 */
export const identityRefusedRoutes: Partial<Record<EndpointId, ListThenRead>> = {
  // Servers of 2024 list projects at GET /api/v1/workspace to users only ("Forbidden access to
  // /api/v1/workspace" for an identity, recorded: 049); identities list them by organisation
  // (051), in a short form without dates or environment ids, while each project reads whole (052).
  "projects.list": {
    listPath: "/api/v2/organizations/{orgId}/workspaces",
    ids: (body) =>
      ((body as { workspaces?: { id?: unknown }[] }).workspaces ?? [])
        .map((w) => w.id)
        .filter((id): id is string => typeof id === "string"),
    read: "projects.get",
    readParams: (id) => ({ workspaceId: id }),
    pick: (body) => (body as { workspace?: unknown }).workspace,
    answer: (records) => ({ workspaces: records }),
  },
};

/**
 * A field some servers require on every call of an operation, though the contract lets a caller
 * leave it out when it does not change it: its current value is read and sent with the call.
 */
export interface RequiredField {
  field: string;
  /** Whether the call's body leaves the field out (where it is needed). */
  lacks: (body: Record<string, unknown>) => boolean;
  /** The contract read of the record(s) as they stand. */
  read: EndpointId;
  readInput: (
    params: Record<string, unknown>,
    body: Record<string, unknown>,
  ) => {
    params: Record<string, unknown>;
    query: Record<string, string>;
  };
  /**
   * The body with the field's current value(s) filled in from the read's answer; undefined when
   * the caller may not read one of them (nothing is then sent in its place).
   */
  complete: (body: Record<string, unknown>, answer: unknown) => Record<string, unknown> | undefined;
}

const folderQuery = (body: Record<string, unknown>): Record<string, string> => ({
  ...Object.fromEntries(
    ["workspaceId", "projectId", "workspaceSlug", "projectSlug"].flatMap((key) =>
      typeof body[key] === "string" ? [[key, body[key]]] : [],
    ),
  ),
  environment: String(body.environment ?? ""),
  secretPath: String(body.secretPath ?? "/"),
});

type ReadSecret = { secretKey?: unknown; secretValue?: unknown; secretValueHidden?: unknown; type?: unknown };
const readableValue = (secret: ReadSecret | undefined): string | undefined =>
  secret?.secretValueHidden === true || typeof secret?.secretValue !== "string" ? undefined : secret.secretValue;
type BatchItem = Record<string, unknown> & { secretKey?: unknown; secretValue?: unknown; type?: unknown };
const batchItems = (body: Record<string, unknown>): BatchItem[] =>
  Array.isArray(body.secrets) ? (body.secrets as BatchItem[]) : [];

/**
 * Operations completed with a field's current value when the upstream refuses them for its
 * absence (and from then on, for that upstream, before sending).
 */
export const requiredFields: Partial<Record<EndpointId, RequiredField>> = {
  // Servers of 2024 refuse any secret update without `secretValue`, a rename, a comment or tags
  // alike (recorded: 101); the console sends only what changed, so a value someone else saved
  // meanwhile is not overwritten with the one the page had.
  "secrets.update": {
    field: "secretValue",
    lacks: (body) => !("secretValue" in body),
    read: "secrets.get",
    readInput: (params, body) => ({
      params: { secretName: params.secretName },
      query: { ...folderQuery(body), type: String(body.type ?? "shared"), viewSecretValue: "true" },
    }),
    complete: (body, answer) => {
      const value = readableValue((answer as { secret?: ReadSecret }).secret);
      return value === undefined ? undefined : { ...body, secretValue: value };
    },
  },
  // ...and every item of a batch update without it (recorded: 069): a rename or a comment alone.
  // One read of the folder's values fills every such item.
  "secrets.batchUpdate": {
    field: "secretValue",
    lacks: (body) => batchItems(body).some((item) => !("secretValue" in item)),
    read: "secrets.list",
    readInput: (_params, body) => ({
      params: {},
      query: { ...folderQuery(body), viewSecretValue: "true", expandSecretReferences: "false" },
    }),
    complete: (body, answer) => {
      const secrets = ((answer as { secrets?: ReadSecret[] }).secrets ?? []).filter((s) => s.type !== "personal");
      const items: BatchItem[] = [];
      for (const item of batchItems(body)) {
        if ("secretValue" in item) {
          items.push(item);
          continue;
        }
        if (item.type === "personal") return undefined;
        const value = readableValue(secrets.find((secret) => secret.secretKey === item.secretKey));
        if (value === undefined) return undefined;
        items.push({ ...item, secretValue: value });
      }
      return { ...body, secrets: items };
    },
  },
};

/**
 * An update in upsert mode (a key that does not exist is created) for servers that ignore the
 * mode (October 2024: every missing key fails the batch with 404, nothing applied): the
 * folder's keys are listed, the missing ones created in one batch and the others updated in
 * one more. When the update is refused, the keys just created are deleted again, so the call
 * stays all or nothing (apart from the versions and snapshots the server keeps).
 */
export interface UpsertSplit {
  isUpsert: (body: Record<string, unknown>) => boolean;
  /** The folder's keys (values withheld), through the contract. */
  list: EndpointId;
  listQuery: (body: Record<string, unknown>) => Record<string, string>;
  create: EndpointId;
  update: EndpointId;
  delete: EndpointId;
}

export const upsertSplits: Partial<Record<EndpointId, UpsertSplit>> = {
  "secrets.batchUpdate": {
    isUpsert: (body) => body.mode === "upsert",
    list: "secrets.list",
    listQuery: (body) => ({ ...folderQuery(body), viewSecretValue: "false" }),
    create: "secrets.batchCreate",
    update: "secrets.batchUpdate",
    delete: "secrets.batchDelete",
  },
};

/**
 * Operations that only some servers have: "route not found" there means the features are missing
 * (and an answer shaped by the contract proves them present).
 */
export const endpointFeatures: Partial<Record<EndpointId, readonly ServerFeature[]>> = {
  "identityPrivileges.create": ["privilegesV2"],
  "identityPrivileges.list": ["privilegesV2"],
  "identityPrivileges.get": ["privilegesV2"],
  "identityPrivileges.update": ["privilegesV2"],
  // Keyhold's own audit routes, which no Infisical server has. The console reads the streams'
  // delivery state whenever it shows them, and verification comes with it: a server without the
  // one has neither, so the button is hidden before anyone presses it.
  "auditLogStreams.status": ["auditStreamDelivery", "auditChainVerification"],
  "auditLogStreams.test": ["auditStreamDelivery"],
  "auditLogs.verify": ["auditChainVerification"],
  "organizations.getAuditLogsRetention": ["orgAuditRetention"],
  "organizations.updateAuditLogsRetention": ["orgAuditRetention"],
  // Keyhold's dry-run logins, which no Infisical server has: there they are a route not found.
  "oidcAuth.dryRunLogin": ["dryRunLogin"],
  "kubernetesAuth.dryRunLogin": ["dryRunLogin"],
  "awsAuth.dryRunLogin": ["dryRunLogin"],
};

/**
 * An org-wide read some servers answer only to a user's session (403 "Forbidden access to…"),
 * whose filtered form a per-project route answers to identities too: the call is made there
 * when its query names the project.
 */
export interface SessionOnlyFallback {
  via: EndpointId;
  /** The per-project call, from the refused call's query; undefined when it names no project. */
  route: (query: URLSearchParams) => { params: Record<string, string>; search: string } | undefined;
}

export const sessionOnlyFallbacks: Partial<Record<EndpointId, SessionOnlyFallback>> = {
  // Servers of 2024 list the org audit log to users only (recorded: 2024 026), and each project's
  // to identities (040). Their project route has no environment, folder or key filters (039):
  // those go as metadata equalities, which it matches (035).
  "auditLogs.listOrg": {
    via: "auditLogs.listProject",
    route: (query) => {
      const projectId = query.get("projectId");
      if (!projectId) return undefined;
      const next = new URLSearchParams(query);
      next.delete("projectId");
      const pairs = ["environment", "secretPath", "secretKey"].flatMap((key) => {
        const value = next.get(key);
        next.delete(key);
        return value ? [`${key}=${value}`] : [];
      });
      const metadata = [next.get("eventMetadata"), ...pairs].filter(Boolean).join(",");
      if (metadata) next.set("eventMetadata", metadata);
      const search = next.toString();
      return { params: { workspaceId: projectId }, search: search ? `?${search}` : "" };
    },
  },
};

/** Lists whose empty answer may mean the server's plan keeps no audit logs (see `UpstreamCompat`). */
export const auditLogLists: ReadonlySet<EndpointId> = new Set(["auditLogs.listOrg", "auditLogs.listProject"]);

import type { AuditEventType, DryRunLoginResult } from "@keyhold/contract";
import { decodeJwt } from "jose";
import { type AuthMethodName, authMethodNames } from "../data/auth-methods.ts";
import { findUniversalAuthByClientId } from "../data/lockouts.ts";
import { type AuthMethodSpec, authMethodSpecs } from "../domain/auth-method-specs.ts";
import type { AuditEventDraft, AuditEventTable, AuditInput } from "./declarations.ts";
import {
  issuedTokenIds,
  lifetimeMetadata,
  orgEvent,
  pick,
  reasonCodeOf,
  refusalMessageOf,
  signInActor,
  signInWith,
} from "./event-helpers.ts";

type Method = AuthMethodSpec["key"];
type AuthMethodIds =
  | `${Method}.${"attach" | "get" | "update" | "revoke"}`
  | `${Exclude<Method, "tokenAuth">}.login`
  | `${Exclude<Method, "tokenAuth" | "universalAuth">}.dryRunLogin`;

/** The methods a peer vouches for, which a dry-run login can try a credential against. */
const DRY_RUN_METHODS: ReadonlySet<AuthMethodName> = new Set(["kubernetes-auth", "oidc-auth", "aws-auth"]);

// Declarations built in a loop see the widest endpoint: these are what they read of it.
interface LooseInput {
  params: { identityId: string };
  body: Record<string, unknown> | undefined;
  db: AuditInput<never>["db"];
  result: Record<string, unknown>;
}
type LooseFailureInput = Omit<LooseInput, "result" | "params"> & { error: unknown };
interface LooseDeclaration {
  type: AuditEventType;
  event: (input: LooseInput) => AuditEventDraft | null | Promise<AuditEventDraft | null>;
  failure?: { type: AuditEventType; event: (input: LooseFailureInput) => Promise<AuditEventDraft | null> };
}

/** The largest claim set an OIDC login event keeps (as Infisical: received claims under 32 KB). */
const MAX_CLAIMS_BYTES = 32 * 1024;

/** What a method's login event adds to `{identityId, identityAccessTokenId, identity<Method>Id}`. */
const loginExtras: Partial<Record<AuthMethodName, (input: LooseInput) => Record<string, unknown>>> = {
  "universal-auth": ({ result }) => pick(issuedTokenIds(String(result.accessToken)), ["clientSecretId"]),
  // The claims of the JWT the caller signed in with (verified by then); never the JWT itself.
  "oidc-auth": ({ body }) => {
    const claims = decodeJwt(String(body?.jwt));
    return JSON.stringify(claims).length < MAX_CLAIMS_BYTES ? { oidcClaimsReceived: claims } : {};
  },
};

/** Which identity a refused sign-in was for: named in the body, or found by its universal-auth client id. */
async function refusedIdentityOf(method: AuthMethodName, input: LooseFailureInput): Promise<string | null> {
  const body = input.body;
  if (method === "universal-auth") {
    const config = await findUniversalAuthByClientId(input.db, String(body?.clientId ?? ""));
    return config?.identity_id ?? null;
  }
  return typeof body?.identityId === "string" ? body.identityId : null;
}

/** What an identity's configuration of a method records: never a credential (the spec names those). */
function configMetadata(spec: AuthMethodSpec, identityId: string, fields: Record<string, unknown>) {
  return {
    identityId,
    ...lifetimeMetadata(fields),
    ...pick(fields, [...spec.settings, ...(spec.ipLists ?? [])]),
  };
}

function configDeclarations(spec: AuthMethodSpec): Record<string, LooseDeclaration> {
  const type = (verb: string) => `${verb}-identity-${spec.name}` as AuditEventType;
  const recordOf = (input: LooseInput) => input.result[spec.envelope] as Record<string, unknown>;
  const event = (fields: (input: LooseInput) => Record<string, unknown>) => (input: LooseInput) =>
    orgEvent(configMetadata(spec, input.params.identityId, fields(input)));
  return {
    [`${spec.key}.attach`]: { type: type("add"), event: event(recordOf) },
    [`${spec.key}.get`]: {
      type: type("get"),
      event: ({ params }: LooseInput) => orgEvent({ identityId: params.identityId }),
    },
    // What the update changed: the fields its body gave.
    [`${spec.key}.update`]: { type: type("update"), event: event(({ body }) => body ?? {}) },
    [`${spec.key}.revoke`]: {
      type: type("revoke"),
      event: ({ params }: LooseInput) => orgEvent({ identityId: params.identityId }),
    },
  };
}

/** A sign-in's event, and the event of a refused sign-in (`login-identity-<method>-failed`). */
function loginDeclaration(spec: AuthMethodSpec): LooseDeclaration {
  const authIdKey = `${spec.envelope}Id`;
  return {
    type: `login-identity-${spec.name}` as AuditEventType,
    event: async (input: LooseInput): Promise<AuditEventDraft | null> => {
      const ids = issuedTokenIds(String(input.result.accessToken));
      const signedIn = await signInWith(input.db, ids.identityId, spec.name);
      if (!signedIn) return null;
      return {
        projectId: null,
        actor: signedIn.actor,
        metadata: {
          identityId: ids.identityId,
          [authIdKey]: signedIn.authMethodId,
          identityAccessTokenId: ids.identityAccessTokenId,
          ...loginExtras[spec.name]?.(input),
        },
      };
    },
    failure: {
      type: `login-identity-${spec.name}-failed` as AuditEventType,
      event: async (input) => {
        const identityId = await refusedIdentityOf(spec.name, input);
        const actor = identityId ? await signInActor(input.db, identityId) : null;
        if (!identityId || !actor) return null;
        return {
          projectId: null,
          actor,
          metadata: { identityId, reasonCode: reasonCodeOf(input.error), message: refusalMessageOf(input.error) },
        };
      },
    },
  };
}

/**
 * A dry-run login (Keyhold's `dry-run-login-identity-<method>`): who tried a credential against
 * which identity's method, which settings the try replaced, and the outcome. Never the credential,
 * nor a setting's value (the reviewer JWT and CA certificate among them).
 */
function dryRunDeclaration(spec: AuthMethodSpec): LooseDeclaration {
  return {
    type: `dry-run-login-identity-${spec.name}` as AuditEventType,
    event: ({ params, body, result }: LooseInput) => {
      const dryRun = result.dryRun as DryRunLoginResult;
      const failed = dryRun.checks.find((check) => check.outcome === "fail");
      const settings = body?.settings;
      return orgEvent({
        identityId: params.identityId,
        settingsTried: settings !== null && typeof settings === "object" ? Object.keys(settings).sort() : [],
        accepted: dryRun.accepted,
        peerOk: dryRun.peer.ok,
        ...(dryRun.peer.statusCode !== undefined && { peerStatusCode: dryRun.peer.statusCode }),
        ...(failed && { failedRule: failed.rule }),
        ...(dryRun.refusal && { refusalStatusCode: dryRun.refusal.statusCode, refusalMessage: dryRun.refusal.message }),
      });
    },
  };
}

/**
 * The events of every auth method's endpoints, generated from the same specs that generate the
 * endpoints and serve them (auth-method-specs.ts): `add-`, `get-`, `update-`, `revoke-identity-<method>`
 * and `login-identity-<method>[-failed]`, Infisical's names for each method.
 */
export const authMethodEvents = Object.fromEntries(
  authMethodNames.flatMap((name) => {
    const spec = authMethodSpecs[name];
    const entries = Object.entries(configDeclarations(spec));
    if (name !== "token-auth") entries.push([`${spec.key}.login`, loginDeclaration(spec)]);
    if (DRY_RUN_METHODS.has(name)) entries.push([`${spec.key}.dryRunLogin`, dryRunDeclaration(spec)]);
    return entries;
  }),
) as unknown as Pick<AuditEventTable, AuthMethodIds>;

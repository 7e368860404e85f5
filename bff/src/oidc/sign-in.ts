import { commaList, ErrorBodySchema, endpoints } from "@keyhold/contract";
import { claimAllowed, claimAt } from "@keyhold/contract/oidc-claims";
import type { FastifyBaseLogger } from "fastify";
import type { UpstreamCompat } from "../compat/upstream-compat.ts";
import type { OidcConfig } from "../config.ts";
import type { Session } from "../session/store.ts";
import type { IdTokenClaims } from "./client.ts";

const oidcLogin = endpoints["oidcAuth.login"];

/** The rule name under which KEYHOLD_OIDC_IDENTITY_ID is reported. */
export const IDENTITY_ID_RULE = "KEYHOLD_OIDC_IDENTITY_ID";

export const NO_OIDC_AUTH = "This secrets service has no OIDC auth, so single sign-on cannot work with it.";

/** A refusal whose message is meant for the person (it names the provider and, where one applies, the rule). */
export class SsoRefusal extends Error {
  override name = "SsoRefusal";
}

export interface RequestContext {
  reqId: string;
  clientIp: string;
  log: FastifyBaseLogger;
}

/** The identity a person signs in as, and the rule that chose it. */
export interface IdentityChoice {
  identityId: string;
  rule: string;
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/** The person as the provider named them. */
export function personOf(claims: IdTokenClaims, provider: string): NonNullable<Session["person"]> {
  return { subject: claims.sub, email: text(claims.email), name: text(claims.name), provider };
}

/** How messages name the person: e-mail, else name, else subject. */
export function whoOf(claims: IdTokenClaims): string {
  return text(claims.email) ?? text(claims.name) ?? claims.sub;
}

/**
 * The first rule whose claim matches (as the service matches bound claims), else
 * KEYHOLD_OIDC_IDENTITY_ID, else none. This only picks the identity; whether the person may
 * use it is the identity's OIDC auth's decision, upstream.
 */
export function chooseIdentity(config: OidcConfig, claims: IdTokenClaims): IdentityChoice | undefined {
  for (const rule of config.rules) {
    const value = claimAt(claims, rule.claim);
    if (value !== undefined && claimAllowed(value, commaList(rule.values))) {
      return { identityId: rule.identityId, rule: rule.name };
    }
  }
  return config.identityId === undefined ? undefined : { identityId: config.identityId, rule: IDENTITY_ID_RULE };
}

export function noRuleMessage(provider: string, claims: IdTokenClaims): string {
  return `${provider} signed you in as ${whoOf(claims)}, but no sign-in rule matches you.`;
}

/**
 * The ID token exchanged at the upstream's OIDC auth login for an access token of the chosen
 * identity; a refusal becomes a message naming the provider, the person and the rule.
 */
export async function upstreamLogin(
  compat: UpstreamCompat,
  provider: string,
  choice: IdentityChoice,
  idToken: string,
  claims: IdTokenClaims,
  context: RequestContext,
): Promise<{ accessToken: string; expiresIn: number }> {
  const answer = await compat.call(
    {
      endpoint: oidcLogin,
      params: {},
      search: "",
      body: { identityId: choice.identityId, jwt: idToken },
      accessToken: undefined,
      clientIp: context.clientIp,
      reqId: context.reqId,
    },
    context.log,
  );
  if (answer.status === 200) {
    const { accessToken, expiresIn } = oidcLogin.response.parse(answer.json);
    return { accessToken, expiresIn };
  }
  const body = ErrorBodySchema.safeParse(answer.json);
  const message = body.success && typeof body.data.message === "string" ? body.data.message : undefined;
  // A server without OIDC auth has no such route at all; one whose identity lacks it says so.
  if (answer.status === 404 && !/oidc auth/i.test(message ?? "")) throw new SsoRefusal(NO_OIDC_AUTH);
  if (answer.status >= 400 && answer.status < 500) {
    throw new SsoRefusal(
      `${provider} signed you in as ${whoOf(claims)}, but the secrets service refused the identity of rule "${choice.rule}": ${message ?? `HTTP ${answer.status}`}`,
    );
  }
  throw new SsoRefusal(
    `${provider} signed you in as ${whoOf(claims)}, but the secrets service could not sign in the identity of rule "${choice.rule}" (HTTP ${answer.status}). Try again.`,
  );
}

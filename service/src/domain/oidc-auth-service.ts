import type { DryRunLoginResult } from "@keyhold/contract";
import {
  firstRefusal,
  mappedClaims,
  OIDC_CLOCK_TOLERANCE_SECONDS,
  oidcChecks,
  oidcIssuerOf,
} from "@keyhold/contract/credential-rules";
import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, type JSONWebKeySet, jwtVerify } from "jose";
import { OutboundInvalidRequestError, outboundRequest, OutboundUnreachableError } from "../lib/outbound-http.ts";
import type { Actor, IssuedToken } from "./access-tokens.ts";
import type { AuthMethodService } from "./auth-method-service.ts";
import { dryRunSettings, peerFailure, refuseWith } from "./dry-run-login.ts";
import { BadGatewayError, BadRequestError, PeerRefusedError, UnauthorizedError } from "./errors.ts";
import type { SignIn } from "./sign-in.ts";

export const OIDC_AUTH_METHOD = "oidc-auth";

const DISCOVERY_PATH = "/.well-known/openid-configuration";
/** Without a key id every key is tried; a larger set than this is refused rather than searched. */
const MAX_KEYS_WITHOUT_KID = 10;

type JwtKeys = ReturnType<typeof createLocalJWKSet>;

/**
 * OIDC sign-in: the JWT's signature is checked against the keys the provider publishes (its
 * discovery document names them), its issuer must be the bound issuer, then the bound subject,
 * audiences and claims decide.
 */
export function createOidcAuthService(deps: { signIn: SignIn; authMethods: AuthMethodService }) {
  const { signIn, authMethods } = deps;

  /** A JSON document from the provider; unreachable → 502, anything but a JSON 2xx → 401. */
  async function fetchJson(url: string, what: string, caCert: string | undefined): Promise<Record<string, unknown>> {
    let answer: { status: number; text: string };
    try {
      answer = await outboundRequest({ url, headers: { accept: "application/json" }, caCert });
    } catch (error) {
      if (error instanceof OutboundUnreachableError) {
        throw new BadGatewayError(`The OIDC provider could not be reached for its ${what}`);
      }
      if (error instanceof OutboundInvalidRequestError) {
        throw new BadRequestError(
          `The OIDC provider's ${what} cannot be requested: its URL or the CA certificate is not usable`,
        );
      }
      throw error;
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new PeerRefusedError(
        `Access denied: the OIDC provider answered HTTP ${answer.status} for its ${what}`,
        answer.status,
      );
    }
    try {
      const parsed: unknown = JSON.parse(answer.text);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // Reported below with the same message as any other unreadable answer.
    }
    throw new UnauthorizedError(`Access denied: the OIDC provider's ${what} is not a JSON object`);
  }

  async function providerKeys(settings: Record<string, unknown>, jwt: string) {
    const caCert = typeof settings.caCert === "string" && settings.caCert ? settings.caCert : undefined;
    const base = String(settings.oidcDiscoveryUrl ?? "").replace(/\/+$/, "");
    const discoveryUrl = base.endsWith(DISCOVERY_PATH) ? base : `${base}${DISCOVERY_PATH}`;
    const discovery = await fetchJson(discoveryUrl, "discovery document", caCert);
    if (typeof discovery.jwks_uri !== "string") {
      throw new UnauthorizedError("Access denied: the OIDC discovery document has no jwks_uri");
    }
    const jwks = await fetchJson(discovery.jwks_uri, "key set", caCert);
    if (!Array.isArray(jwks.keys))
      throw new UnauthorizedError("Access denied: the OIDC provider's key set has no keys");
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(jwt).kid;
    } catch {
      throw new UnauthorizedError("Access denied: the token is not a JWT");
    }
    if (kid === undefined && jwks.keys.length > MAX_KEYS_WITHOUT_KID) {
      throw new UnauthorizedError("Access denied: the token names no key and the provider publishes too many to try");
    }
    try {
      return createLocalJWKSet(jwks as unknown as JSONWebKeySet);
    } catch {
      throw new UnauthorizedError("Access denied: the OIDC provider's key set cannot be read");
    }
  }

  /** The token's claims once the provider's key has verified its signature and jose its issuer and times. */
  async function verifiedClaims(settings: Record<string, unknown>, jwt: string, keys: JwtKeys, now: number) {
    const { payload } = await jwtVerify(jwt, keys, {
      issuer: oidcIssuerOf(settings),
      currentDate: new Date(now),
      clockTolerance: OIDC_CLOCK_TOLERANCE_SECONDS,
    });
    return payload as Record<string, unknown>;
  }

  return {
    async login(identityId: string, jwt: string): Promise<IssuedToken> {
      const { row, record } = await signIn.configOf(
        OIDC_AUTH_METHOD,
        identityId,
        "OIDC auth method not found for identity, did you configure OIDC auth?",
      );
      const keys = await providerKeys(record, jwt);
      const now = Date.now();
      let claims: Record<string, unknown>;
      try {
        claims = await verifiedClaims(record, jwt, keys, now);
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError(`Access denied: ${error.message}`);
        throw error;
      }
      // The shared rules (issuer and times again, as jose checked them; subject, audiences, bound
      // claims, the claim metadata mapping): the first that fails is the answer.
      refuseWith(firstRefusal(oidcChecks(record, claims, now)));
      const claimMetadata = mappedClaims(record, claims);
      // The mapped claims travel with the token: every event of a request made with it names them.
      return signIn.issue(OIDC_AUTH_METHOD, row, Object.keys(claimMetadata).length > 0 ? claimMetadata : null);
    },

    /**
     * The login against settings a form has not saved: the same discovery, keys, signature,
     * issuer and time checks, then every shared rule; no token, no login recorded.
     */
    async dryRun(actor: Actor, identityId: string, input: { settings: Record<string, unknown>; jwt: string }) {
      const settings = await dryRunSettings(authMethods, actor, OIDC_AUTH_METHOD, identityId, input.settings, {
        defaults: { caCert: "", boundAudiences: "", boundClaims: {}, boundSubject: "" },
        required: ["oidcDiscoveryUrl", "boundIssuer"],
      });
      let keys: JwtKeys;
      try {
        keys = await providerKeys(settings, input.jwt);
      } catch (error) {
        return peerFailure(error);
      }
      const now = Date.now();
      let claims: Record<string, unknown>;
      let claimRefusal: { statusCode: number; message: string } | undefined;
      try {
        claims = await verifiedClaims(settings, input.jwt, keys, now);
      } catch (error) {
        // A claim check fails only after the signature verified: the peer vouched for the token.
        if (error instanceof joseErrors.JWTClaimValidationFailed || error instanceof joseErrors.JWTExpired) {
          claims = error.payload;
          claimRefusal = { statusCode: 401, message: `Access denied: ${error.message}` };
        } else if (error instanceof joseErrors.JOSEError) {
          return peerFailure(new UnauthorizedError(`Access denied: ${error.message}`));
        } else {
          throw error;
        }
      }
      const checks = oidcChecks(settings, claims, now);
      const refusal = claimRefusal ?? firstRefusal(checks);
      return {
        accepted: refusal === undefined,
        peer: { ok: true, message: "The provider's published key verified the token's signature" },
        checks,
        ...(refusal && { refusal }),
      } satisfies DryRunLoginResult;
    },
  };
}

export type OidcAuthService = ReturnType<typeof createOidcAuthService>;

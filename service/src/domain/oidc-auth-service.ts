import { commaList } from "@keyhold/contract";
import { claimAllowed, claimAt, globMatches as matches } from "@keyhold/contract/oidc-claims";
import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, type JSONWebKeySet, jwtVerify } from "jose";
import { OutboundInvalidRequestError, outboundRequest, OutboundUnreachableError } from "../lib/outbound-http.ts";
import type { IssuedToken } from "./access-tokens.ts";
import { BadGatewayError, BadRequestError, ForbiddenError, UnauthorizedError } from "./errors.ts";
import type { SignIn } from "./sign-in.ts";

export const OIDC_AUTH_METHOD = "oidc-auth";

const DISCOVERY_PATH = "/.well-known/openid-configuration";
/** Without a key id every key is tried; a larger set than this is refused rather than searched. */
const MAX_KEYS_WITHOUT_KID = 10;

/**
 * OIDC sign-in: the JWT's signature is checked against the keys the provider publishes (its
 * discovery document names them), its issuer must be the bound issuer, then the bound subject,
 * audiences and claims decide.
 */
export function createOidcAuthService(deps: { signIn: SignIn }) {
  const { signIn } = deps;

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
      throw new UnauthorizedError(`Access denied: the OIDC provider answered HTTP ${answer.status} for its ${what}`);
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

  return {
    async login(identityId: string, jwt: string): Promise<IssuedToken> {
      const { row, record } = await signIn.configOf(
        OIDC_AUTH_METHOD,
        identityId,
        "OIDC auth method not found for identity, did you configure OIDC auth?",
      );
      const keys = await providerKeys(record, jwt);
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(jwt, keys, { issuer: String(record.boundIssuer ?? "") }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError(`Access denied: ${error.message}`);
        throw error;
      }

      const boundSubject = typeof record.boundSubject === "string" ? record.boundSubject.trim() : "";
      if (boundSubject && !(typeof payload.sub === "string" && matches(payload.sub, boundSubject))) {
        throw new ForbiddenError("Access denied: OIDC subject not allowed.");
      }
      const audiences = commaList(record.boundAudiences);
      if (audiences.length > 0) {
        const aud = payload.aud;
        const tokenAudiences = Array.isArray(aud) ? aud : typeof aud === "string" ? [aud] : [];
        if (!tokenAudiences.some((entry) => typeof entry === "string" && audiences.some((a) => matches(entry, a)))) {
          throw new UnauthorizedError("Access denied: OIDC audience not allowed.");
        }
      }
      const boundClaims = (record.boundClaims ?? {}) as Record<string, string>;
      for (const [path, allowed] of Object.entries(boundClaims)) {
        const value = claimAt(payload, path);
        if (value === undefined) throw new UnauthorizedError(`Access denied: token has no ${path} field`);
        if (!claimAllowed(value, commaList(allowed)))
          throw new UnauthorizedError("Access denied: OIDC claim not allowed.");
      }
      const mapping = (record.claimMetadataMapping ?? {}) as Record<string, string>;
      const claimMetadata: Record<string, string> = {};
      for (const [name, path] of Object.entries(mapping)) {
        const value = claimAt(payload, path);
        if (value === undefined) {
          throw new UnauthorizedError(`Access denied: token has no ${path} field for the claim metadata mapping`);
        }
        claimMetadata[name] = typeof value === "string" ? value : JSON.stringify(value);
      }
      // The mapped claims travel with the token: every event of a request made with it names them.
      return signIn.issue(OIDC_AUTH_METHOD, row, Object.keys(claimMetadata).length > 0 ? claimMetadata : null);
    },
  };
}

export type OidcAuthService = ReturnType<typeof createOidcAuthService>;

import { createPrivateKey } from "node:crypto";
import { importJWK, importPKCS8, type JWK } from "jose";
import * as client from "openid-client";
import type { OidcConfig } from "../config.ts";

/** What a flow must carry from the authorization request to the callback. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The ID token's claims, after openid-client has checked its signature, issuer, audience, expiry and nonce. */
export type IdTokenClaims = Record<string, unknown> & { sub: string };

/** A token response from the provider: the raw ID token (for the upstream), its claims and the refresh token. */
export interface ProviderTokens {
  idToken: string | undefined;
  claims: IdTokenClaims | undefined;
  refreshToken: string | undefined;
}

/** The provider could not be reached, or its discovery document was not usable. */
export class ProviderUnavailableError extends Error {
  override name = "ProviderUnavailableError";
}

/**
 * The relying party, on openid-client: discovery (lazily on first use, tried again after a
 * failure, so a provider that is down when the BFF starts does not stop it), authorization URLs
 * with PKCE (S256), state and nonce, the code and refresh grants, RP-initiated logout and
 * revocation. No token is parsed or checked by hand here.
 */
export class OidcClient {
  #configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly config: OidcConfig,
    private readonly timeoutSeconds = 10,
  ) {}

  /** The discovered configuration; a failed discovery is forgotten so the next call tries again. */
  configuration(): Promise<client.Configuration> {
    if (!this.#configuration) {
      const pending = this.#discover();
      this.#configuration = pending;
      pending.catch(() => {
        if (this.#configuration === pending) this.#configuration = undefined;
      });
    }
    return this.#configuration;
  }

  async #discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientAuth } = this.config;
    const insecure = new URL(issuer).protocol === "http:";
    const authentication =
      clientAuth.method === "client_secret_basic"
        ? client.ClientSecretBasic(clientAuth.secret)
        : client.PrivateKeyJwt(await importPrivateKey(clientAuth.privateKey));
    try {
      return await client.discovery(new URL(issuer), clientId, undefined, authentication, {
        timeout: this.timeoutSeconds,
        // ID tokens' signatures are checked against the provider's published keys too, not only
        // their claims: the token endpoint's TLS is not the only thing vouching for them.
        // The configuration refuses plain http:// issuers other than loopback ones.
        execute: insecure
          ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
          : [client.enableNonRepudiationChecks],
      });
    } catch (error) {
      throw new ProviderUnavailableError(
        `The OpenID provider's discovery document at ${issuer}/.well-known/openid-configuration could not be used: ${reasonOf(error)}`,
      );
    }
  }

  /** Fresh state, nonce and PKCE verifier for one sign-in. */
  static newChecks(): AuthorizationChecks {
    return {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
  }

  async authorizationUrl(redirectUri: string, checks: AuthorizationChecks): Promise<URL> {
    const configuration = await this.configuration();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      response_type: "code",
      scope: this.config.scopes.join(" "),
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: "S256",
    });
  }

  /** The callback's code exchanged, with every check: state, PKCE, nonce, ID token signature, issuer, audience, expiry. */
  async codeGrant(callbackUrl: URL, checks: AuthorizationChecks): Promise<ProviderTokens> {
    const configuration = await this.configuration();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    return providerTokens(tokens);
  }

  /** A refresh grant; the answer may or may not carry a new ID token and a rotated refresh token. */
  async refresh(refreshToken: string): Promise<ProviderTokens> {
    const tokens = await client.refreshTokenGrant(await this.configuration(), refreshToken);
    return providerTokens(tokens);
  }

  /**
   * Where to send the browser to end its session at the provider, or undefined when the
   * provider has no end-session endpoint. No id_token_hint: the browser never sees the ID token.
   */
  async endSessionUrl(postLogoutRedirectUri: string): Promise<string | undefined> {
    const configuration = await this.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return client
      .buildEndSessionUrl(configuration, {
        client_id: this.config.clientId,
        post_logout_redirect_uri: postLogoutRedirectUri,
      })
      .toString();
  }

  /** Revokes a refresh token at the provider when it has a revocation endpoint; false when it has none. */
  async revokeRefreshToken(refreshToken: string): Promise<boolean> {
    const configuration = await this.configuration();
    if (!configuration.serverMetadata().revocation_endpoint) return false;
    await client.tokenRevocation(configuration, refreshToken, { token_type_hint: "refresh_token" });
    return true;
  }
}

function providerTokens(tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): ProviderTokens {
  const claims = tokens.claims();
  return {
    idToken: tokens.id_token,
    claims: claims ? (claims as unknown as IdTokenClaims) : undefined,
    refreshToken: tokens.refresh_token,
  };
}

/** PEM (PKCS#8) or a JWK; the algorithm follows the key type unless the JWK names one. */
async function importPrivateKey(text: string): Promise<client.PrivateKey> {
  if (text.trimStart().startsWith("{")) {
    const jwk = JSON.parse(text) as JWK;
    const alg = jwk.alg ?? algorithmFor(jwk.kty, jwk.crv);
    const key = (await importJWK(jwk, alg)) as client.CryptoKey;
    return jwk.kid ? { key, kid: jwk.kid } : { key };
  }
  const details = createPrivateKey(text);
  const alg = algorithmFor(
    details.asymmetricKeyType === "rsa" ? "RSA" : details.asymmetricKeyType === "ec" ? "EC" : "OKP",
    details.asymmetricKeyDetails?.namedCurve,
  );
  return { key: await importPKCS8(text, alg) };
}

function algorithmFor(kty: string | undefined, curve: string | undefined): string {
  if (kty === "RSA") return "RS256";
  if (kty === "EC") {
    if (curve === "P-384" || curve === "secp384r1") return "ES384";
    if (curve === "P-521" || curve === "secp521r1") return "ES512";
    return "ES256";
  }
  return "EdDSA";
}

/** A provider or library error in one sentence: its OAuth error code when it has one, never a token. */
export function reasonOf(error: unknown): string {
  if (error instanceof client.ResponseBodyError) {
    return error.error_description ? `${error.error} (${error.error_description})` : error.error;
  }
  if (error instanceof client.AuthorizationResponseError) {
    return error.error_description ? `${error.error} (${error.error_description})` : error.error;
  }
  // openid-client's own errors are generic; the check that failed is their cause's message
  // (oauth4webapi names the claim or parameter, never its value).
  if (error instanceof client.ClientError && error.cause instanceof Error) return error.cause.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The provider was not reached (as opposed to answering with a refusal). */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof ProviderUnavailableError ||
    (error instanceof Error && ["TypeError", "AbortError", "TimeoutError"].includes(error.name))
  );
}

import type { Server } from "node:http";
import { exportJWK, generateKeyPair, type JWK, SignJWT, decodeJwt } from "jose";
import Provider, { type Adapter, type AdapterPayload } from "oidc-provider";

/**
 * A real OpenID provider on loopback (oidc-provider), with its own users and its own login page,
 * for tests of single sign-on. Nothing in it is a stand-in for Keyhold: it plays the company's
 * identity provider.
 */

export interface ProviderUser {
  email: string;
  password: string;
  name: string;
  groups: string[];
  /** A disabled person cannot sign in, and their refresh tokens stop working. */
  disabled?: boolean;
}

export interface ProviderClient {
  clientId: string;
  /** client_secret_basic; leave out for a client that signs its token requests (private_key_jwt). */
  clientSecret?: string;
  /** The client's public keys, for private_key_jwt. */
  jwks?: { keys: JWK[] };
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
}

export interface ProviderOptions {
  /** Listen on this port (0 or unset: a free one). */
  port?: number;
  users: ProviderUser[];
  clients: ProviderClient[];
  /** Seconds. */
  ttl?: { idToken?: number; accessToken?: number; refreshToken?: number };
  /**
   * Serve over https with this key and certificate (PEM); the issuer is then `https://127.0.0.1:<port>`.
   * Some servers fetch an issuer's keys over https only (Infisical of October 2024).
   */
  tls?: { key: string; cert: string };
}

/** Changes a token response's ID token before the client sees it (re-signed with the provider's own key). */
export type IdTokenTamper = (claims: Record<string, unknown>) => Record<string, unknown>;

export interface TestOidcProvider {
  /** The issuer, `http://127.0.0.1:<port>` (`https://` with `tls`). */
  issuer: string;
  users: Map<string, ProviderUser>;
  /** Every token request the provider answered, in order: grant type and whether it succeeded. */
  tokenRequests: { grantType: string; status: number }[];
  /** Every token the token endpoint handed out (ID, access and refresh tokens), in order: for exposure checks. */
  issuedTokens: string[];
  /** Set to alter the next ID tokens the token endpoint hands out; undefined restores honesty. */
  tamperIdToken: IdTokenTamper | undefined;
  /** Set to sign the next ID tokens with a key the provider does not publish (same key id). */
  forgeIdTokenSignature: boolean;
  /** Signs an arbitrary ID token with the provider's key (for tokens it would never issue). */
  sign(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** One map per provider instance, so providers in one process never share grants. */
function memoryAdapter(): new (name: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number | undefined }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  return class MemoryAdapter implements Adapter {
    constructor(private readonly name: string) {}
    #key(id: string) {
      return `${this.name}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      store.set(this.#key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id: string) {
      return live(this.#key(id));
    }
    async findByUid(uid: string) {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.name}:`) && entry.payload.uid === uid) return live(key);
      }
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key, entry] of store) {
        if (key.startsWith(`${this.name}:`) && entry.payload.userCode === userCode) return live(key);
      }
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.#key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.#key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme ID: sign in</title></head>
<body><main><h1>Acme ID</h1>${error ? `<p role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Continue</button></form></main></body></html>`;
}

async function readForm(ctx: { req: AsyncIterable<unknown> }): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startOidcProvider(options: ProviderOptions): Promise<TestOidcProvider> {
  const users = new Map(options.users.map((user) => [user.email, { ...user }]));
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "acme-1", alg: "RS256", use: "sig" };

  // Learn the port first: the issuer names it.
  const server: Server = options.tls
    ? (await import("node:https")).createServer(options.tls)
    : (await import("node:http")).createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const issuer = `${options.tls ? "https" : "http"}://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    jwks: { keys: [signingKey] },
    cookies: { keys: ["acme-cookie-key-for-tests-only"] },
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      ...(client.clientSecret
        ? { client_secret: client.clientSecret, token_endpoint_auth_method: "client_secret_basic" }
        : { token_endpoint_auth_method: "private_key_jwt", jwks: client.jwks }),
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    })),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    // ID tokens carry the claims themselves, as most company providers are set up to do.
    conformIdTokenClaims: false,
    scopes: ["openid", "offline_access", "email", "profile", "groups"],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      revocation: { enabled: true },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: {
      IdToken: options.ttl?.idToken ?? 300,
      AccessToken: options.ttl?.accessToken ?? 300,
      RefreshToken: options.ttl?.refreshToken ?? 86_400,
      Interaction: 600,
      Session: 3_600,
      Grant: 86_400,
    },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user || user.disabled) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, email: user.email, email_verified: true, name: user.name, groups: user.groups };
        },
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });

  const result: TestOidcProvider = {
    issuer,
    users,
    tokenRequests: [],
    issuedTokens: [],
    tamperIdToken: undefined,
    forgeIdTokenSignature: false,
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: signingKey.kid }).sign(privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  // The provider's own login page: e-mail and password, checked against its users.
  provider.use(async (ctx, next) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(ctx.path);
    if (!match) {
      await next();
      if (ctx.path === "/token" && ctx.method === "POST") {
        const grantType = ctx.oidc?.params?.grant_type;
        result.tokenRequests.push({ grantType: typeof grantType === "string" ? grantType : "", status: ctx.status });
        const body = ctx.body as { id_token?: string; access_token?: string; refresh_token?: string } | undefined;
        if ((result.tamperIdToken || result.forgeIdTokenSignature) && ctx.status === 200 && body?.id_token) {
          const claims = decodeJwt(body.id_token);
          const altered = result.tamperIdToken ? result.tamperIdToken(claims) : claims;
          body.id_token = result.forgeIdTokenSignature
            ? await new SignJWT(altered)
                .setProtectedHeader({ alg: "RS256", kid: signingKey.kid })
                .sign((await generateKeyPair("RS256")).privateKey)
            : await result.sign(altered);
        }
        for (const token of [body?.id_token, body?.access_token, body?.refresh_token]) {
          if (ctx.status === 200 && token) result.issuedTokens.push(token);
        }
      }
      return;
    }
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.prompt.name === "consent") {
      // The company's own application: consent is implied.
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) ?? undefined)
        : new provider.Grant({
            accountId: String(details.session?.accountId),
            clientId: String(details.params.client_id),
          });
      if (!grant) throw new Error("grant not found");
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    if (ctx.method === "GET") {
      ctx.type = "html";
      ctx.body = loginPage(match[1] ?? "");
      return;
    }
    const form = await readForm(ctx);
    const user = users.get(form.get("email") ?? "");
    if (!user || user.password !== form.get("password") || user.disabled) {
      ctx.type = "html";
      ctx.body = loginPage(match[1] ?? "", "Unknown e-mail or wrong password.");
      return;
    }
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: user.email } },
      { mergeWithLastSubmission: false },
    );
  });

  server.on("request", provider.callback());
  return result;
}

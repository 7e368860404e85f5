import { randomBytes } from "node:crypto";
import {
  bffPaths,
  errorNames,
  type OidcSetup,
  type OidcTestResult,
  OidcTestResultSchema,
  type SignInOptions,
  Uuid,
} from "@keyhold/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { UpstreamCompat } from "../compat/upstream-compat.ts";
import type { Config, OidcConfig } from "../config.ts";
import { HttpError, notFound } from "../errors.ts";
import { OidcClient, reasonOf } from "../oidc/client.ts";
import type { FlowStore } from "../oidc/flow-store.ts";
import { revokeUpstreamToken } from "../oidc/revoke.ts";
import {
  chooseIdentity,
  type IdentityChoice,
  noRuleMessage,
  personOf,
  SsoRefusal,
  upstreamLogin,
  whoOf,
} from "../oidc/sign-in.ts";
import { clearSessionCookie, hasSessionCookie, readSessionId, setSessionCookie } from "../session/cookie.ts";
import { requireSession } from "../session/guard.ts";
import type { TokenRenewal } from "../session/renewal.ts";
import type { Sessions } from "../session/sessions.ts";
import type { Clock, Session } from "../session/store.ts";
import { identify } from "./bff.ts";

export interface OidcRouteDeps {
  config: Pick<Config, "publicUrl" | "credentialSignIn" | "insecureCookies">;
  oidc: { config: OidcConfig; client: OidcClient } | undefined;
  flows: FlowStore;
  sessions: Sessions;
  compat: UpstreamCompat;
  renewal: TokenRenewal;
  clock: Clock;
}

const FLOW_TTL_MS = 10 * 60_000;
const FAILURE_TTL_MS = 5 * 60_000;
const TEST_RESULT_TTL_MS = 10 * 60_000;
const FLOW_ID = /^[A-Za-z0-9_-]{43}$/;
/** What the set-up page's test window shows when it lands. */
const TEST_LANDING = "/sso-test";
const FAILURE_LANDING = "/sign-in?sso=failed";
const TEST_RULE = "test sign-in";

/** A same-origin path: one "/" then anything but a second "/" or "\", and no whitespace or backslash anywhere. */
const ReturnToSchema = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])[^\s\\]*$/, "must be a path on this site, such as /projects");

const LoginQuerySchema = z.object({ returnTo: ReturnToSchema.optional(), test: Uuid.optional() });

/** What the BFF keeps, server-side, between the redirect to the provider and the callback. */
const PendingFlowSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  redirectUri: z.url(),
  returnTo: ReturnToSchema,
  test: z.object({ sessionId: z.string(), identityId: Uuid }).optional(),
});
type PendingFlow = z.infer<typeof PendingFlowSchema>;

const flowKey = (id: string) => `flow:${id}`;
const failureKey = (id: string) => `failure:${id}`;
const testKey = (sessionId: string) => `test:${sessionId}`;

function flowCookie(insecure: boolean, maxAgeSeconds: number) {
  return {
    name: insecure ? "keyhold-sso" : "__Host-keyhold-sso",
    // Lax, not Strict: the provider's redirect back is a cross-site navigation that must carry it.
    options: { httpOnly: true, secure: !insecure, sameSite: "lax", path: "/", maxAge: maxAgeSeconds } as const,
  };
}

/** Single sign-on: sign-in options, the two navigations (login, callback), the set-up and test views. */
export function registerOidcRoutes(app: FastifyInstance, deps: OidcRouteDeps): void {
  const { flows, sessions } = deps;
  const insecure = deps.config.insecureCookies;
  const cookieName = flowCookie(insecure, 0).name;
  const readFlowId = (request: FastifyRequest) => {
    const value = request.cookies[cookieName];
    return value && FLOW_ID.test(value) ? value : undefined;
  };
  const publicOrigin = (request: FastifyRequest) => deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const callbackUrl = (request: FastifyRequest) => `${publicOrigin(request)}${bffPaths.oidcCallback}`;
  const at = () => new Date(deps.clock()).toISOString();

  /** A failed sign-in: only a one-time message is kept, for this browser's sign-in page. */
  async function failed(reply: FastifyReply, message: string, flow?: PendingFlow): Promise<FastifyReply> {
    if (flow?.test) {
      await flows.put(testKey(flow.test.sessionId), { status: "failed", at: at(), message }, TEST_RESULT_TTL_MS);
      return reply.redirect(TEST_LANDING, 302);
    }
    const id = randomBytes(32).toString("base64url");
    await flows.put(failureKey(id), { message }, FAILURE_TTL_MS);
    const { name, options } = flowCookie(insecure, FAILURE_TTL_MS / 1000);
    reply.setCookie(name, id, options);
    return reply.redirect(FAILURE_LANDING, 302);
  }

  async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<Session> {
    const session = await requireSession(sessions, request, reply, deps.renewal);
    if (session.identity.role !== "admin") {
      throw new HttpError(403, errorNames.permissionDenied, "Only organization admins may set up single sign-on.");
    }
    return session;
  }

  app.get(bffPaths.signInOptions, async (request, reply): Promise<SignInOptions> => {
    const flowId = readFlowId(request);
    const failure = flowId === undefined ? undefined : await flows.take(failureKey(flowId));
    const message = z.object({ message: z.string() }).safeParse(failure);
    if (message.success) reply.clearCookie(cookieName, flowCookie(insecure, 0).options);
    const oidc = deps.oidc?.config;
    return {
      credentials: deps.config.credentialSignIn,
      sso: oidc?.mode === "on" ? { providerName: oidc.providerName, loginPath: bffPaths.oidcLogin } : null,
      ...(message.success && { failure: message.data.message }),
    };
  });

  app.get(bffPaths.oidcLogin, async (request, reply) => {
    const oidc = deps.oidc;
    if (!oidc) throw notFound("Single sign-on is not configured.");
    const query = LoginQuerySchema.safeParse(request.query);
    if (!query.success) {
      throw new HttpError(400, errorNames.badRequest, "The return path must be a path on this site.");
    }
    let test: PendingFlow["test"];
    if (query.data.test !== undefined) {
      const session = await requireAdmin(request, reply);
      test = { sessionId: session.id, identityId: query.data.test };
    } else if (oidc.config.mode !== "on") {
      throw notFound("Single sign-on is not switched on yet: only test sign-ins from the set-up page run.");
    }
    const checks = OidcClient.newChecks();
    const flow: PendingFlow = {
      ...checks,
      redirectUri: callbackUrl(request),
      returnTo: query.data.returnTo ?? "/",
      ...(test && { test }),
    };
    let authorizationUrl: URL;
    try {
      authorizationUrl = await oidc.client.authorizationUrl(flow.redirectUri, checks);
    } catch (error) {
      request.log.warn({ reason: reasonOf(error) }, "single sign-on could not start");
      return failed(reply, `${oidc.config.providerName} cannot be reached right now. Try again shortly.`, flow);
    }
    const id = randomBytes(32).toString("base64url");
    await flows.put(flowKey(id), flow, FLOW_TTL_MS);
    if (test) await flows.put(testKey(test.sessionId), { status: "pending", at: at() }, TEST_RESULT_TTL_MS);
    const { name, options } = flowCookie(insecure, FLOW_TTL_MS / 1000);
    reply.setCookie(name, id, options);
    return reply.redirect(authorizationUrl.toString(), 302);
  });

  app.get(bffPaths.oidcCallback, async (request, reply) => {
    const oidc = deps.oidc;
    if (!oidc) throw notFound("Single sign-on is not configured.");
    const provider = oidc.config.providerName;
    // One use: the pending flow is read and deleted together, and the browser's cookie goes too.
    const flowId = readFlowId(request);
    if (request.cookies[cookieName] !== undefined) reply.clearCookie(cookieName, flowCookie(insecure, 0).options);
    const stored = PendingFlowSchema.safeParse(flowId === undefined ? undefined : await flows.take(flowKey(flowId)));
    if (!stored.success) {
      request.log.info("single sign-on callback without a pending sign-in in this browser");
      return failed(
        reply,
        "The sign-in could not be finished: it was not started in this browser, took longer than 10 minutes, or was already used. Try again.",
      );
    }
    const flow = stored.data;
    const url = new URL(flow.redirectUri);
    url.search = new URL(request.url, "http://callback").search;

    let tokens: Awaited<ReturnType<OidcClient["codeGrant"]>>;
    try {
      tokens = await oidc.client.codeGrant(url, flow);
    } catch (error) {
      request.log.info({ reason: reasonOf(error) }, "single sign-on refused at the callback");
      return failed(reply, `${provider} did not sign you in: ${reasonOf(error)}`, flow);
    }
    const { idToken, claims } = tokens;
    if (!idToken || !claims) return failed(reply, `${provider} gave no ID token.`, flow);

    const choice: IdentityChoice | undefined = flow.test
      ? { identityId: flow.test.identityId, rule: TEST_RULE }
      : chooseIdentity(oidc.config, claims);
    if (!choice) return failed(reply, noRuleMessage(provider, claims), flow);

    const context = { reqId: request.id, clientIp: request.ip, log: request.log };
    let signedIn: { accessToken: string; expiresIn: number };
    try {
      signedIn = await upstreamLogin(deps.compat, provider, choice, idToken, claims, context);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      return failed(reply, error.message, flow);
    }
    let fields: Awaited<ReturnType<typeof identify>>;
    try {
      fields = await identify(deps.compat, signedIn.accessToken, request);
    } catch (error) {
      await revokeUpstreamToken(deps.compat, signedIn.accessToken, context);
      const reason = error instanceof HttpError && typeof error.reason === "string" ? error.reason : "HTTP 502";
      return failed(reply, `${provider} signed you in as ${whoOf(claims)}, but ${reason}`, flow);
    }

    if (flow.test) {
      // A test proves the chain works and signs nobody in: both tokens are given back at once.
      await Promise.all([
        revokeUpstreamToken(deps.compat, signedIn.accessToken, context),
        tokens.refreshToken && oidc.client.revokeRefreshToken(tokens.refreshToken).catch(() => false),
      ]);
      const person = personOf(claims, provider);
      const result: OidcTestResult = {
        status: "passed",
        at: at(),
        message: `${provider} signed in ${whoOf(claims)}, and the secrets service accepted them as the identity ${fields.identity.name}.`,
        person: { subject: person.subject, email: person.email, name: person.name },
        identity: { id: fields.identity.id, name: fields.identity.name },
      };
      await flows.put(testKey(flow.test.sessionId), OidcTestResultSchema.parse(result), TEST_RESULT_TTL_MS);
      return reply.redirect(TEST_LANDING, 302);
    }

    // No fixation: a session the browser arrived with ends, and the new one gets a fresh id.
    const previous = readSessionId(request);
    if (previous !== undefined) await sessions.end(previous);
    else if (hasSessionCookie(request)) clearSessionCookie(reply);
    const session = await sessions.create({
      ...fields,
      tokenRenewAt: deps.renewal.renewAt(signedIn.expiresIn),
      person: personOf(claims, provider),
      oidc: { refreshToken: tokens.refreshToken, identityId: choice.identityId, rule: choice.rule },
    });
    setSessionCookie(reply, session.id);
    return reply.redirect(flow.returnTo, 302);
  });

  app.get(bffPaths.oidcSetup, async (request, reply): Promise<OidcSetup> => {
    await requireAdmin(request, reply);
    const oidc = deps.oidc;
    const base = {
      callbackUrl: callbackUrl(request),
      postLogoutRedirectUrl: `${publicOrigin(request)}/sign-in`,
      credentials: deps.config.credentialSignIn,
    };
    if (!oidc) return { ...base, mode: "off", scopes: [], rules: [] };
    let problem: string | undefined;
    try {
      await oidc.client.configuration();
    } catch (error) {
      problem = reasonOf(error);
    }
    const { config } = oidc;
    return {
      ...base,
      mode: config.mode,
      issuer: config.issuer,
      clientId: config.clientId,
      providerName: config.providerName,
      scopes: config.scopes,
      clientAuth: config.clientAuth.method,
      ...(config.identityId !== undefined && { identityId: config.identityId }),
      rules: config.rules,
      ...(problem !== undefined && { problem }),
    };
  });

  app.get(bffPaths.oidcTest, async (request, reply): Promise<OidcTestResult> => {
    const session = await requireAdmin(request, reply);
    const result = OidcTestResultSchema.safeParse(await flows.get(testKey(session.id)));
    return result.success ? result.data : { status: "none" };
  });
}

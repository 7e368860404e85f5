import {
  BffLoginBodySchema,
  BffLogoutResponseSchema,
  type BffSession,
  bffPaths,
  ErrorBodySchema,
  endpoints,
  errorNames,
} from "@keyhold/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { decodeJwt } from "jose";
import type { Config } from "../config.ts";
import { badGateway, HttpError, refuseUnstorableText, unauthorized, validationFailed } from "../errors.ts";
import { clearSessionCookie, hasSessionCookie, readSessionId, setSessionCookie } from "../session/cookie.ts";
import { requireSession } from "../session/guard.ts";
import type { TokenRenewal } from "../session/renewal.ts";
import type { NewSession, Sessions } from "../session/sessions.ts";
import type { Session } from "../session/store.ts";
import type { UpstreamCompat } from "../compat/upstream-compat.ts";

export interface BffRouteDeps {
  sessions: Sessions;
  compat: UpstreamCompat;
  renewal: TokenRenewal;
  loginRateLimit: Config["loginRateLimit"];
  /** False: the access-token and client-secret sign-in is refused (KEYHOLD_CREDENTIAL_SIGN_IN=false). */
  credentialSignIn: boolean;
  /**
   * Ends a single sign-on session at the provider too (its refresh token revoked); the URL to
   * send the browser to for RP-initiated logout, when the provider has one.
   */
  ssoSignOut?: (session: Session, request: FastifyRequest) => Promise<string | undefined>;
}

const TOKEN_NOT_ACCEPTED = "The access token was not accepted. Check that it is complete and still valid.";
const CANNOT_READ_ITSELF =
  "The access token is valid, but its identity may not read identities in its organization, so it cannot use the console. Give it the member or admin organization role.";
const identityGet = endpoints["identities.get"];

/**
 * A 403 at sign-in means a live token that may not be used here: tell the person why.
 * A 403 TokenError (expired or forged JWT) falls through to "not accepted".
 */
function refusedByUpstream(json: unknown): void {
  const body = ErrorBodySchema.safeParse(json);
  if (!body.success) return;
  const { error, message } = body.data;
  if (error === errorNames.permissionDenied || error === errorNames.permissionBoundary) {
    throw new HttpError(403, errorNames.permissionDenied, CANNOT_READ_ITSELF);
  }
  if (error === errorNames.forbidden && typeof message === "string") {
    throw new HttpError(403, errorNames.forbidden, `The secrets service refused this access token: ${message}`);
  }
}

/** Who the token belongs to, as the upstream sees it. The token is not verified here; the upstream does that. */
export async function identify(
  compat: UpstreamCompat,
  accessToken: string,
  request: Pick<FastifyRequest, "id" | "ip" | "log">,
): Promise<NewSession> {
  let claim: unknown;
  try {
    claim = decodeJwt(accessToken).identityId;
  } catch {
    throw unauthorized(TOKEN_NOT_ACCEPTED);
  }
  const params = identityGet.params.safeParse({ identityId: claim });
  if (!params.success) throw unauthorized(TOKEN_NOT_ACCEPTED);

  const response = await compat.call(
    {
      endpoint: identityGet,
      params: params.data,
      search: "",
      body: undefined,
      accessToken,
      clientIp: request.ip,
      reqId: request.id,
    },
    request.log,
  );
  if (response.status === 403) refusedByUpstream(response.json);
  if ([401, 403, 404].includes(response.status)) throw unauthorized(TOKEN_NOT_ACCEPTED);
  if (response.status !== 200) {
    throw badGateway(`The secrets service could not confirm the identity (HTTP ${response.status}). Try again.`);
  }
  // The compatibility layer has brought the answer to the contract's shape, or refused it.
  const { identity: membership } = identityGet.response.parse(response.json);
  return {
    accessToken,
    identity: { id: membership.identity.id, name: membership.identity.name, role: membership.role },
    orgId: membership.orgId,
  };
}

const CLIENT_NOT_ACCEPTED = "The client ID and client secret were not accepted. Check both and try again.";
const universalLogin = endpoints["universalAuth.login"];

/**
 * Signs in upstream with universal auth and remembers when to renew the token it got, so the
 * session outlives the token's TTL (up to its max TTL) without the person signing in again.
 */
async function signInWithClientSecret(
  compat: UpstreamCompat,
  renewal: TokenRenewal,
  credentials: { clientId: string; clientSecret: string },
  request: Pick<FastifyRequest, "id" | "ip" | "log">,
): Promise<NewSession> {
  const login = await compat.call(
    {
      endpoint: universalLogin,
      params: {},
      search: "",
      body: credentials,
      accessToken: undefined,
      clientIp: request.ip,
      reqId: request.id,
    },
    request.log,
  );
  if (login.status === 401 || login.status === 400 || login.status === 404 || login.status === 422) {
    throw unauthorized(CLIENT_NOT_ACCEPTED);
  }
  if (login.status === 403) {
    throw new HttpError(403, errorNames.forbidden, "This client secret may not be used from your IP address.");
  }
  if (login.status !== 200) {
    throw badGateway(`The secrets service could not sign in with this client ID (HTTP ${login.status}). Try again.`);
  }
  const { accessToken, expiresIn } = universalLogin.response.parse(login.json);
  const fields = await identify(compat, accessToken, request);
  return { ...fields, tokenRenewAt: renewal.renewAt(expiresIn) };
}

/** Sign-in, "who am I" and sign-out: the only routes the contract does not describe. */
export function registerBffRoutes(app: FastifyInstance, deps: BffRouteDeps): void {
  const view = (session: Session): BffSession => ({
    ...deps.sessions.view(session),
    server: { features: deps.compat.features() },
  });
  const rateLimit = { max: deps.loginRateLimit.max, timeWindow: deps.loginRateLimit.windowMs };

  app.post(bffPaths.login, { config: { rateLimit } }, async (request, reply) => {
    // Whatever the outcome, a session the browser arrived with is not carried over (fixation).
    const previous = readSessionId(request);
    if (previous !== undefined) await deps.sessions.end(previous);
    if (hasSessionCookie(request)) clearSessionCookie(reply);
    if (!deps.credentialSignIn) {
      throw new HttpError(
        403,
        errorNames.forbidden,
        "Sign-in with an access token or client secret is switched off here.",
      );
    }

    refuseUnstorableText(request.body);
    const body = BffLoginBodySchema.safeParse(request.body);
    if (!body.success) throw validationFailed(body.error);
    const fields =
      "accessToken" in body.data
        ? await identify(deps.compat, body.data.accessToken, request)
        : await signInWithClientSecret(deps.compat, deps.renewal, body.data, request);
    const session = await deps.sessions.create(fields);
    setSessionCookie(reply, session.id);
    return view(session);
  });

  app.get(bffPaths.session, async (request, reply) => {
    const session = await requireSession(deps.sessions, request, reply, deps.renewal);
    return view(session);
  });

  app.post(bffPaths.logout, async (request, reply) => {
    const id = readSessionId(request);
    const session = id === undefined ? undefined : await deps.sessions.peek(id);
    if (id !== undefined) await deps.sessions.end(id);
    clearSessionCookie(reply);
    // Not "cookies": browsers clear those for the whole registrable domain, which would sign the person
    // out of the company's other applications there, the OpenID provider among them. The session
    // cookie is expired above; the session itself is gone from the store.
    reply.header("clear-site-data", '"cache","storage"');
    const endSessionUrl = session?.oidc && deps.ssoSignOut ? await deps.ssoSignOut(session, request) : undefined;
    if (endSessionUrl) return reply.code(200).send(BffLogoutResponseSchema.parse({ endSessionUrl }));
    return reply.code(204).send();
  });
}

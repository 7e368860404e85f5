import { endpoints } from "@keyhold/contract";
import type { FastifyBaseLogger } from "fastify";
import type { UpstreamCompat } from "../compat/upstream-compat.ts";
import type { Sessions } from "./sessions.ts";
import type { Clock, Session } from "./store.ts";

const renew = endpoints["accessTokens.renew"];

export interface RenewalContext {
  reqId: string;
  clientIp: string;
  log: FastifyBaseLogger;
}

/**
 * Single sign-on's part of a renewal: the provider's refresh grant and, with the fresh ID token
 * it gives, a new upstream sign-in. `signedIn` is absent when the provider gave no ID token (the
 * upstream token is then renewed as any other); undefined: the provider or the upstream refused.
 */
export type SsoRenew = (
  session: Session,
  context: RenewalContext,
) => Promise<{ signedIn?: { accessToken: string; expiresIn: number }; oidc: NonNullable<Session["oidc"]> } | undefined>;

/** When to renew a token that lives `expiresIn` seconds from `now`: two thirds into its life. */
export function renewAtFor(expiresIn: number, now: number): number | undefined {
  return expiresIn > 0 ? now + Math.floor((expiresIn * 1000 * 2) / 3) : undefined;
}

/**
 * Keeps the bearer tokens of client-id and single sign-on sessions alive: once a session's token is due, the
 * first request renews it upstream and every request arriving meanwhile waits for that same
 * renewal (one in flight per session in this process). A refused renewal ends the session.
 */
export class TokenRenewal {
  readonly #inFlight = new Map<string, Promise<Session | undefined>>();

  constructor(
    private readonly sessions: Sessions,
    private readonly compat: UpstreamCompat,
    private readonly now: Clock,
    private readonly sso?: SsoRenew,
  ) {}

  /** When to renew a token this BFF just got, that lives `expiresIn` seconds. */
  renewAt(expiresIn: number): number | undefined {
    return renewAtFor(expiresIn, this.now());
  }

  due(session: Session): boolean {
    return session.tokenRenewAt !== undefined && this.now() >= session.tokenRenewAt;
  }

  /** The session with a fresh token, or undefined when the upstream refused to renew it. */
  renew(session: Session, context: RenewalContext): Promise<Session | undefined> {
    let pending = this.#inFlight.get(session.id);
    if (!pending) {
      pending = this.#renew(session, context).finally(() => this.#inFlight.delete(session.id));
      this.#inFlight.set(session.id, pending);
    }
    return pending;
  }

  async #renew(session: Session, context: RenewalContext): Promise<Session | undefined> {
    const { reqId, clientIp, log } = context;
    let oidc = session.oidc;
    if (oidc && this.sso) {
      const renewed = await this.sso(session, context);
      if (!renewed) {
        log.info("the provider or the secrets service refused to renew the single sign-on; ending the session");
        await this.sessions.end(session.id);
        return undefined;
      }
      oidc = renewed.oidc;
      if (renewed.signedIn) {
        const { accessToken, expiresIn } = renewed.signedIn;
        return this.sessions.replaceToken(session, accessToken, renewAtFor(expiresIn, this.now()), oidc);
      }
    }
    const answer = await this.compat.call(
      {
        endpoint: renew,
        params: {},
        search: "",
        body: { accessToken: session.accessToken },
        accessToken: undefined,
        clientIp,
        reqId,
      },
      log,
    );
    if (answer.status !== 200) {
      log.info({ upstreamStatus: answer.status }, "the session's token could not be renewed; ending the session");
      await this.sessions.end(session.id);
      return undefined;
    }
    const { accessToken, expiresIn } = renew.response.parse(answer.json);
    return this.sessions.replaceToken(session, accessToken, renewAtFor(expiresIn, this.now()), oidc);
  }
}

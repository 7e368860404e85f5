import {
  type BffLoginBody,
  BffLogoutResponseSchema,
  BffSessionSchema,
  bffPaths,
  type SignInOptions,
  SignInOptionsSchema,
} from "@keyhold/contract";
import { request } from "@/lib/api-client";
import { isMissingRoute } from "@/lib/api-error";

declare global {
  interface Window {
    /** The sign-in options index.html's boot script (web/boot.js) asks for on the sign-in page. */
    keyholdSignInOptions?: Promise<Response> | undefined;
  }
}

/** The early answer, for the first reader only: it may carry a failure told once. */
function takeEarlySignInOptions(): Promise<Response> | undefined {
  const early = window.keyholdSignInOptions;
  window.keyholdSignInOptions = undefined;
  return early;
}

/** The BFF's own sign-in and sign-out; these are not contract endpoints, so they have their own calls. */
export const authApi = {
  /** Which ways to sign in the BFF offers, and why this browser's last single sign-on failed (told once). */
  signInOptions: async (signal?: AbortSignal): Promise<SignInOptions> => {
    try {
      const sent = takeEarlySignInOptions();
      return await request({ method: "GET", url: bffPaths.signInOptions, schema: SignInOptionsSchema, signal, sent });
    } catch (error) {
      // A BFF from before single sign-on has no such route: it offers the credentials forms only.
      if (isMissingRoute(error)) return { credentials: true, sso: null };
      throw error;
    }
  },
  signIn: (body: BffLoginBody) => request({ method: "POST", url: bffPaths.login, body, schema: BffSessionSchema }),
  /** 204, or where to end the provider's session too (a session that came from single sign-on). */
  signOut: async () =>
    (await request({ method: "POST", url: bffPaths.logout, body: {}, schema: BffLogoutResponseSchema.optional() }))
      ?.endSessionUrl,
};

/** Where the "Sign in with …" link goes: the BFF's login route, told where to come back to. */
export function ssoLoginHref(loginPath: string, returnTo: string): string {
  return `${loginPath}?${new URLSearchParams({ returnTo })}`;
}

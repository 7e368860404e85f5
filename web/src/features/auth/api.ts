import { type BffLoginBody, BffSessionSchema, bffPaths } from "@keyhold/contract";
import { z } from "zod";
import { request } from "@/lib/api-client";

/** The BFF's own sign-in and sign-out; these are not contract endpoints, so they have their own calls. */
export const authApi = {
  signIn: (body: BffLoginBody) => request({ method: "POST", url: bffPaths.login, body, schema: BffSessionSchema }),
  // The logout answer carries nothing the app needs.
  signOut: () => request({ method: "POST", url: bffPaths.logout, body: {}, schema: z.unknown() }),
};

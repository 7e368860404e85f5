import { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Who may call an endpoint, as documentation for people and for the generated OpenAPI. */
export interface PermissionNote {
  scope: "org" | "project";
  subject: string;
  action: string;
}

/**
 * How a caller proves who it is: `bearer` (the default) sends an access token in the
 * Authorization header; `none` marks the sign-in endpoints (login, token renew and revoke),
 * which take no bearer token and check the credential carried in their body instead.
 */
export type EndpointAuth = "bearer" | "none";

/** An endpoint without a request body declares `body: NoBody`. */
export const NoBody = z.undefined();
/** An endpoint without path or query parameters declares `NoParams`. */
export const NoParams = z.object({});

export interface Endpoint<
  Id extends string = string,
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
  Auth extends EndpointAuth = EndpointAuth,
> {
  id: Id;
  method: HttpMethod;
  /** Infisical's path template, parameters written `{name}`. */
  path: string;
  summary: string;
  params: Params;
  query: Query;
  body: Body;
  /** The whole success envelope, for example `{ identity }`. */
  response: Response;
  auth: Auth;
  permission?: PermissionNote;
  /**
   * The largest request body the endpoint takes, in bytes, where that is more than the servers'
   * default of 1 MiB (the batches: a 5,000-line import with long values).
   */
  bodyLimit?: number;
}

/** The body limit of the batch endpoints: 16 MiB. */
export const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest endpoint type, used only as a constraint
export type AnyEndpoint = Endpoint<string, any, any, any, any, EndpointAuth>;

export function defineEndpoint<
  const Id extends string,
  Params extends z.ZodType = typeof NoParams,
  Query extends z.ZodType = typeof NoParams,
  Body extends z.ZodType = typeof NoBody,
  Response extends z.ZodType = z.ZodType,
  const Auth extends EndpointAuth = "bearer",
>(
  spec: Omit<Endpoint<Id, Params, Query, Body, Response, Auth>, "params" | "query" | "body" | "auth"> & {
    params?: Params;
    query?: Query;
    body?: Body;
    auth?: Auth;
  },
): Endpoint<Id, Params, Query, Body, Response, Auth> {
  return {
    ...spec,
    params: (spec.params ?? NoParams) as Params,
    query: (spec.query ?? NoParams) as Query,
    body: (spec.body ?? NoBody) as Body,
    auth: (spec.auth ?? "bearer") as Auth,
  };
}

export type ParamsOf<E extends AnyEndpoint> = z.input<E["params"]>;
export type QueryOf<E extends AnyEndpoint> = z.input<E["query"]>;
export type BodyOf<E extends AnyEndpoint> = z.input<E["body"]>;
export type ResponseOf<E extends AnyEndpoint> = z.output<E["response"]>;

/** The names of the `{param}` placeholders in a path template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

export class PathParamError extends Error {
  constructor(
    readonly param: string,
    reason: string,
  ) {
    super(`Path parameter "${param}" ${reason}`);
    this.name = "PathParamError";
  }
}

/**
 * Builds the path of a request from an endpoint's template. Every parameter is
 * percent-encoded as one segment, so no value can add a segment, a query or a host.
 * "." and ".." are refused because URL parsers resolve them as dot segments even
 * when percent-encoded.
 */
export function buildPath(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== "string" && typeof value !== "number") {
      throw new PathParamError(name, "is missing");
    }
    const text = String(value);
    if (text === "") throw new PathParamError(name, "is empty");
    if (/^(\.|%2e){1,2}$/i.test(text)) throw new PathParamError(name, "cannot be a dot segment");
    return encodeURIComponent(text);
  });
}

/** A Fastify/find-my-way route pattern (`/a/:b`) for a contract template (`/a/{b}`). */
export function routePattern(template: string): string {
  return template.replace(/\{(\w+)\}/g, ":$1");
}

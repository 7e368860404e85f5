import {
  type AnyEndpoint,
  type BodyOf,
  buildPath,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from "@keyhold/contract";

export interface CallInput<E extends AnyEndpoint> {
  params?: ParamsOf<E>;
  query?: QueryOf<E>;
  body?: BodyOf<E>;
}

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`service answered ${status}: ${JSON.stringify(body)}`);
  }
}

/** A typed client straight to the service, for seeding and cleaning up test data. */
export function serviceClient(baseUrl: string, token: string) {
  return async function call<E extends AnyEndpoint>(endpoint: E, input: CallInput<E> = {}): Promise<ResponseOf<E>> {
    const query = new URLSearchParams(Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)]));
    const url = `${baseUrl}${buildPath(endpoint.path, input.params ?? {})}${query.size ? `?${query}` : ""}`;
    const response = await fetch(url, {
      method: endpoint.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(input.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    });
    const body: unknown = await response.json();
    if (!response.ok) throw new ServiceError(response.status, body);
    return body as ResponseOf<E>;
  };
}
export type ServiceCall = ReturnType<typeof serviceClient>;

/** The HTTP status a call answers with: 200 when it succeeds, the server's status when it refuses. */
export async function statusOf(work: Promise<unknown>): Promise<number> {
  try {
    await work;
    return 200;
  } catch (error) {
    if (error instanceof ServiceError) return error.status;
    throw error;
  }
}

/** Gone already: 404, or the 500 an October 2024 server answers for an unknown project id. */
export async function ignoreNotFound(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (error) {
    const gone =
      error instanceof ServiceError &&
      (error.status === 404 ||
        (error.status === 500 && (error.body as { error?: unknown }).error === "Failed to find project by id"));
    if (!gone) throw error;
  }
}

import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the service and the BFF share in running their HTTP server: graceful shutdown on the
 * signals orchestrators send, the Prometheus metrics listener, and the answer to a body over the
 * limit. Typed by shape, so that this package needs neither Fastify nor prom-client.
 */

type LogFn = (details: object, message: string) => void;

/** The parts of a Fastify app that shutdown uses. */
export interface GracefulServer {
  log: { info: LogFn; warn: LogFn; error: LogFn };
  server: Pick<http.Server, "closeIdleConnections" | "closeAllConnections">;
  close(): PromiseLike<unknown>;
}

/**
 * SIGTERM (what orchestrators send) and SIGINT (Ctrl-C) stop the server gracefully: it stops
 * accepting connections and answers new requests on open ones with 503, lets the requests in
 * flight finish (closing each connection once it falls idle), then runs the app's close hooks
 * (the service writes its batched token uses and closes the database; the BFF closes Redis and
 * its upstream pool) and exits 0. Requests still running after `graceMs` have their connections
 * closed so that shutdown ends in bounded time; the close hooks run all the same. A second
 * signal of the same kind ends the process at once.
 */
export function handleShutdownSignals(app: GracefulServer, graceMs: number): void {
  let closing = false;
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs }, "Shutting down: finishing the requests in flight");
    // A connection whose request finishes after the close began would otherwise stay open on
    // keep-alive until the client hangs up: close each one as soon as it falls idle.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
    const grace = setTimeout(() => {
      app.log.warn({ graceMs }, "Shutdown grace period over: closing the connections of requests still running");
      app.server.closeAllConnections();
    }, graceMs);
    try {
      await app.close();
      clearInterval(idleSweep);
      clearTimeout(grace);
      app.log.info({ signal }, "Stopped");
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "Shutdown failed");
      process.exit(1);
    }
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, (s) => void shutDown(s));
}

/** A prom-client registry, as the listener uses it. */
export interface MetricsRegistry {
  metrics(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsListener {
  /** `http://host:port/metrics` */
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics in Prometheus' text format on a listener of its own, apart from the console and
 * the API: never reachable through the origin browsers use, never forwarded by a proxy in front.
 */
export async function listenForMetrics(
  registry: MetricsRegistry,
  at: { host: string; port: number },
): Promise<MetricsListener> {
  const server = http.createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Metrics are served at /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => response.writeHead(500, { "content-type": "text/plain" }).end("Could not collect the metrics\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at.port, at.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How much of an oversized body is read, and for how long, before the 413 is sent. */
export interface BodyDrainBounds {
  /** The most bytes read here; a body whose Content-Length is larger is not read at all. */
  maxBytes: number;
  maxMs: number;
}

export const bodyDrainBounds: BodyDrainBounds = { maxBytes: 32 * 1024 * 1024, maxMs: 10_000 };

/** The parts of a Fastify reply that settling an oversized body sets. */
export interface ConnectionHeaderReply {
  header(name: "connection", value: "close"): unknown;
  removeHeader(name: "connection"): unknown;
}

/** "The request body is larger than the 1 MB limit" (sizes in units of 1024). */
export function bodyTooLargeMessage(limitBytes: number): string {
  return `The request body is larger than the ${formatSize(limitBytes)} limit`;
}

function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ["GB", 1024 ** 3],
    ["MB", 1024 ** 2],
    ["KB", 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * Fastify refuses a body over the limit as soon as it knows (from Content-Length, or once the
 * bytes read pass the limit) and closes the connection after its 413. The client is then still
 * sending: the close resets the connection, and most clients (browsers, Node's fetch) report a
 * network error instead of the 413. So the rest of the body is read and thrown away first, and
 * the connection stays open for the next request. A body that would take more than `bounds` to
 * read (Content-Length says so, or reading it does) is not waited for: the 413 goes out with
 * `Connection: close`, and a client still sending may not see it.
 */
export async function drainOversizedBody(
  request: http.IncomingMessage,
  reply: ConnectionHeaderReply,
  bounds: BodyDrainBounds = bodyDrainBounds,
): Promise<void> {
  if (await readToEnd(request, bounds)) reply.removeHeader("connection");
  else reply.header("connection", "close");
}

function readToEnd(request: http.IncomingMessage, { maxBytes, maxMs }: BodyDrainBounds): Promise<boolean> {
  if (request.readableEnded) return Promise.resolve(true);
  // `complete`: every byte has arrived, though some may wait unread in the stream.
  if (!request.complete && Number(request.headers["content-length"]) > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const onData = (chunk: Buffer | string) => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(false);
    const timer = setTimeout(onGone, maxMs);
    function finish(ended: boolean): void {
      clearTimeout(timer);
      request.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      if (!ended) request.pause();
      resolve(ended);
    }
    request.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onGone);
    request.resume();
  });
}

type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
type LogMethod = (...args: never[]) => void;

/** The parts of a pino logger (Fastify's base logger) that a request's logger forwards to. */
export type ShapedLogger = { level: string; child(bindings: object, options?: object): ShapedLogger } & Record<
  LogLevel,
  LogMethod
>;

/**
 * A request's logger (the parent's child bound to the request id), made only when something
 * logs through it: making a pino child runs the redaction over its bindings, which costs more
 * than a read's own work, and most requests log nothing but their completed line, which the
 * log controller writes. Whatever does log through it goes through the same redaction as before.
 */
class DeferredChildLogger {
  readonly #parent: ShapedLogger;
  readonly #bindings: object;
  readonly #options: { level?: string };
  #made: ShapedLogger | undefined;

  constructor(parent: ShapedLogger, bindings: object, options: { level?: string }) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): ShapedLogger {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  #forward(level: LogLevel): LogMethod {
    return (...args: never[]) => this.#logger()[level](...args);
  }

  get level(): string {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal = this.#forward("fatal");
  error = this.#forward("error");
  warn = this.#forward("warn");
  info = this.#forward("info");
  debug = this.#forward("debug");
  trace = this.#forward("trace");
  silent = this.#forward("silent");

  child(bindings: object, options?: object): ShapedLogger {
    return this.#logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory` for the service and the BFF: each request's logger, made when first used. */
export function deferredChildLogger<L extends ShapedLogger>(parent: L, bindings: object, options: object): L {
  return new DeferredChildLogger(parent, bindings, options) as unknown as L;
}

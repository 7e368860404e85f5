import type { AnyEndpoint, EndpointId, Endpoints } from "@keyhold/contract";
import type { z } from "zod";
import type { Actor } from "../domain/access-tokens.ts";

/**
 * What a handler receives: the contract-parsed request, the authenticated caller (null on the
 * sign-in endpoints, which take no bearer token) and the caller's address.
 */
export interface HandlerInput<E extends AnyEndpoint> {
  params: z.output<E["params"]>;
  query: z.output<E["query"]>;
  body: z.output<E["body"]>;
  actor: E["auth"] extends "none" ? null : Actor;
  /** The address trusted IP ranges are checked against (request.ip: proxy-aware). */
  callerIp: string;
}

/** A handler returns the success envelope; the response schema shapes it on the way out. */
export type Handler<E extends AnyEndpoint> = (input: HandlerInput<E>) => Promise<z.input<E["response"]>>;

/** Marks an endpoint of the contract that this service does not serve yet (answers 501). */
export const notImplemented = Symbol("notImplemented");

/** One entry per contract endpoint: leaving one out is a compile error. */
export type HandlerMap = { [Id in EndpointId]: Handler<Endpoints[Id]> | typeof notImplemented };

const shapedAnswers = new WeakSet<object>();

/**
 * Marks an answer that a handler built field by field to its endpoint's response schema (a list
 * of thousands of secrets), so the route sends it as it is instead of parsing it a second time.
 * Each such endpoint has a test that parsing its answer would change nothing.
 */
export function shapedAnswer<T extends object>(answer: T): T {
  shapedAnswers.add(answer);
  return answer;
}

export function isShapedAnswer(value: unknown): boolean {
  return typeof value === "object" && value !== null && shapedAnswers.has(value);
}

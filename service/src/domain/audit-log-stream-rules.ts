import { MASKED_HEADER_VALUE, type StreamHeader } from "@keyhold/contract";
import { BadRequestError } from "./errors.ts";

/** The provider Keyhold delivers to: an HTTP endpoint of the organisation's choosing. */
export const DELIVERED_PROVIDER = "custom";

/**
 * Streams per organisation. Infisical's plans allow 3; Keyhold has no plans, but each stream is
 * one more POST for every event and one more reader of the event table, so the fan-out of one
 * event stays bounded. Ten leaves room for a SIEM, an archive and their staging copies.
 */
export const STREAM_LIMIT = 10;

export type StreamFilters = Record<string, unknown> | null | undefined;

export function assertProvider(provider: string): void {
  if (provider !== DELIVERED_PROVIDER) {
    throw new BadRequestError(
      `Keyhold delivers audit log streams to the "${DELIVERED_PROVIDER}" provider (an HTTP endpoint) only, not to "${provider}"`,
    );
  }
}

/**
 * Keyhold's projects are all secret-manager projects and it filters nothing else, so it takes
 * the one filter that means "everything": none, or products naming secret-manager. Anything
 * else would be a filter silently not applied.
 */
export function checkFilters(filters: StreamFilters): void {
  if (filters === null || filters === undefined) return;
  const { products, ...rest } = filters;
  const others = Object.keys(rest);
  if (others.length > 0) {
    throw new BadRequestError(`Audit log stream filters other than products are not supported: ${others.join(", ")}`);
  }
  if (
    products !== undefined &&
    !(Array.isArray(products) && products.every((p) => typeof p === "string") && products.includes("secret-manager"))
  ) {
    throw new BadRequestError(
      'Audit log stream filter products must include "secret-manager": every Keyhold project is a secret-manager project',
    );
  }
}

/** A header sent back as "******" keeps the value stored under its key. */
export function resolveHeaders(sent: readonly StreamHeader[], stored: readonly StreamHeader[]): StreamHeader[] {
  return sent.map(({ key, value }) => {
    if (value !== MASKED_HEADER_VALUE) return { key, value };
    const kept = stored.find((h) => h.key.toLowerCase() === key.toLowerCase());
    if (!kept) throw new BadRequestError(`Header "${key}" has no stored value to keep; send its value`);
    return { key, value: kept.value };
  });
}

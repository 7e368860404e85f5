import { AUDIT_EVENT_TYPES } from "@keyhold/contract";
import { type ProjectAbility, projectSubject } from "../domain/project-permissions.ts";

/**
 * Which of a project's events a caller may read: `undefined` for every type, else exactly these
 * types (possibly none). Project roles may narrow `audit-logs:read` with conditions on
 * `eventType` ($eq, $ne, $in, $glob) and remove types with forbid rules; the list endpoints turn
 * the answer into a filter on the event type, so a caller never sees an event its rules forbid.
 */
export type ReadableEventTypes = readonly string[] | undefined;

/**
 * Rules are evaluated by CASL against every type an event can have (the contract's list: events
 * are written only with those types). Unconditional allow rules with no forbid rule allow all
 * types without that walk, which is the common case (the predefined roles).
 */
export function readableEventTypes(ability: ProjectAbility): ReadableEventTypes {
  const rules = ability.rulesFor("read", "audit-logs");
  if (rules.length > 0 && rules.every((rule) => !rule.inverted && rule.conditions === undefined)) return undefined;
  const types = AUDIT_EVENT_TYPES.filter((eventType) =>
    ability.can("read", projectSubject("audit-logs", { eventType })),
  );
  return types.length === AUDIT_EVENT_TYPES.length ? undefined : types;
}

/**
 * The event types a list asks for (undefined: any), within those the caller may read
 * (undefined: any). An empty answer means the list is empty whatever else it asks.
 */
export function intersectEventTypes(
  wanted: readonly string[] | undefined,
  readable: ReadableEventTypes,
): readonly string[] | undefined {
  if (readable === undefined) return wanted;
  if (wanted === undefined) return readable;
  const allowed = new Set(readable);
  return wanted.filter((eventType) => allowed.has(eventType));
}

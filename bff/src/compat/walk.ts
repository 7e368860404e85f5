import type { z } from "zod";

/** What a rule may do with a record that lacks a field the current contract requires. */
export interface FieldRule {
  /** The value to use when the field is missing: a constant, or computed from the record. */
  fill: (record: Record<string, unknown>) => unknown;
  /** The server feature that the field's presence proves (and its absence disproves). */
  feature?: string;
  /** What the browser gets of the value when the field is there (a write-only credential: only that it is set). */
  present?: (value: unknown) => unknown;
}

/** Per record schema of the contract: the fields older servers leave out, and how to fill them. */
export type RecordRules = ReadonlyMap<z.ZodType, Readonly<Record<string, FieldRule>>>;

/** What a normalisation saw: features proven present or absent, and the fields it filled. */
export interface Evidence {
  features: Map<string, boolean>;
  filled: string[];
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * Brings a response body to the contract's current shape, following the endpoint's response
 * schema: records named in `rules` get their missing fields filled, numbers sent as strings
 * become numbers, and everything else (unknown fields included) is kept as it was. The input is
 * never modified; unchanged parts are shared.
 */
export function normalise(schema: z.ZodType, value: unknown, rules: RecordRules, evidence: Evidence, at = ""): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return value === undefined || value === null || !def.innerType
        ? value
        : normalise(def.innerType, value, rules, evidence, at);
    case "pipe":
      return def.in ? normalise(def.in, value, rules, evidence, at) : value;
    case "number":
      return typeof value === "string" && NUMERIC.test(value) ? Number(value) : value;
    case "array": {
      if (!Array.isArray(value) || !def.element) return value;
      const element = def.element;
      let changed = false;
      const items = value.map((item, i) => {
        const next = normalise(element, item, rules, evidence, `${at}[${i}]`);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? items : value;
    }
    case "object": {
      if (!isRecord(value) || !def.shape) return value;
      let record = value;
      const fieldRules = rules.get(schema);
      if (fieldRules) {
        for (const [field, rule] of Object.entries(fieldRules)) {
          const present = field in record;
          if (rule.feature) evidence.features.set(rule.feature, present);
          if (present && rule.present) {
            const shown = rule.present(record[field]);
            if (shown !== record[field]) {
              if (record === value) record = { ...value };
              record[field] = shown;
            }
          }
          if (present) continue;
          if (record === value) record = { ...value };
          record[field] = rule.fill(record);
          evidence.filled.push(`${at}.${field}`.replace(/^\./, ""));
        }
      }
      for (const [key, child] of Object.entries(def.shape)) {
        if (!(key in record)) continue;
        const next = normalise(child, record[key], rules, evidence, at ? `${at}.${key}` : key);
        if (next === record[key]) continue;
        if (record === value) record = { ...value };
        record[key] = next;
      }
      return record;
    }
    default:
      return value;
  }
}

export function newEvidence(): Evidence {
  return { features: new Map(), filled: [] };
}

/** What `normalise` may do to an answer already in a schema's shape (see `onShapedAnswer`). */
export interface ShapedAnswerEffect {
  /** Whether it may change such an answer: a field it would fill or rewrite there. */
  changes: boolean;
  /** The features that such an answer proves present (its records hold every required field). */
  features: string[];
}

/**
 * What normalising an answer that already has the schema's shape would do, worked out from the
 * schema alone by following the same path `normalise` takes. Such an answer holds every field
 * the schema requires and numbers as numbers, so a rule changes it only where it rewrites a
 * present value (`present`) or fills a field the schema lets it leave out; every other rule
 * finds its field there, which proves its feature present.
 */
export function onShapedAnswer(schema: z.ZodType, rules: RecordRules): ShapedAnswerEffect {
  const effect: ShapedAnswerEffect = { changes: false, features: [] };
  const seen = new Set<z.ZodType>();
  const visit = (node: z.ZodType): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = defOf(node);
    switch (def.type) {
      case "optional":
      case "nullable":
      case "default":
      case "prefault":
      case "readonly":
      case "catch":
      case "nonoptional":
        if (def.innerType) visit(def.innerType);
        return;
      case "pipe":
        if (def.in) visit(def.in);
        return;
      case "array":
        if (def.element) visit(def.element);
        return;
      case "object": {
        for (const [field, rule] of Object.entries(rules.get(node) ?? {})) {
          const child = def.shape?.[field];
          const required =
            child !== undefined && (child as unknown as { _zod: { optin?: unknown } })._zod.optin === undefined;
          if (rule.present || !required) effect.changes = true;
          else if (rule.feature && !effect.features.includes(rule.feature)) effect.features.push(rule.feature);
        }
        for (const child of Object.values(def.shape ?? {})) visit(child);
        return;
      }
      default:
        return;
    }
  };
  visit(schema);
  return effect;
}

import { ForbiddenError } from "./errors.ts";

/**
 * Secret references, `${KEY}` and `${env.a.b.KEY}`, expanded as Infisical expands them:
 * - `${KEY}` is KEY in the same environment and folder as the secret holding the reference (inside a
 *   referenced secret, its own environment and folder); `${env.KEY}` is KEY at the root of
 *   environment `env`; `${env.a.b.KEY}` is KEY in folder /a/b of `env`.
 * - Only `${` + letters, digits, `_`, `.`, `-` + `}` is a reference; anything else is plain text.
 * - A reference that resolves to nothing (no such environment, folder or key, or an empty value)
 *   stays as written. So does a reference back to a secret already being expanded on the same
 *   branch (a cycle), and anything nested deeper than ten levels. None of these is an error on the
 *   wire (the text shows what did not resolve); each is reported in `issues`.
 * - Reading a referenced secret needs permission to read its value; without it the expansion fails
 *   with 403, also when the referenced secret does not exist.
 *
 * Nothing here reads the database: folders come from `loadFolder`, permission from `canRead`.
 */

export const MAX_REFERENCE_DEPTH = 10;

const REFERENCE = /\$\{([A-Za-z0-9_.-]+)\}/g;

export interface SecretAddress {
  environment: string;
  secretPath: string;
  secretKey: string;
}

export interface FolderSecret {
  value: string;
  /** Tag slugs, for permission conditions. */
  tags: string[];
}

export interface ReferenceContext {
  /** The secrets of a folder by key; undefined when the environment or folder does not exist. */
  loadFolder(environment: string, secretPath: string): Promise<ReadonlyMap<string, FolderSecret> | undefined>;
  /** Whether the caller may read this secret's value (tags empty for a secret that does not exist). */
  canRead(secret: SecretAddress & { secretTags: string[] }): boolean;
}

export type ReferenceIssueKind = "missing" | "empty" | "cycle" | "depth" | "malformed";

export interface ReferenceIssue {
  kind: ReferenceIssueKind;
  /** The reference as written, for example `${prod.db.URL}`. */
  reference: string;
  /** The secret whose value holds the reference. */
  in: SecretAddress;
  /** Where the reference points (absent when it is malformed). */
  target?: SecretAddress;
}

export interface Expansion {
  value: string;
  issues: ReferenceIssue[];
}

/** A reference the caller may not read: Infisical's 403 for it. */
export class ReferencePermissionError extends ForbiddenError {}

/** Where `${body}` points from a secret at `from`; undefined when it is malformed (empty segments). */
export function resolveReference(body: string, from: { environment: string; secretPath: string }) {
  const parts = body.split(".");
  if (parts.some((part) => part === "")) return undefined;
  if (parts.length === 1) return { environment: from.environment, secretPath: from.secretPath, secretKey: body };
  const [environment, ...rest] = parts as [string, ...string[]];
  const secretKey = rest.pop() as string;
  return { environment, secretPath: rest.length === 0 ? "/" : `/${rest.join("/")}`, secretKey };
}

/** Every distinct reference in a value, in order of first appearance. */
export function referencesIn(value: string): string[] {
  return [...new Set([...value.matchAll(REFERENCE)].map((m) => m[1] as string))];
}

const addressKey = (a: SecretAddress) => JSON.stringify([a.environment, a.secretPath, a.secretKey]);
const describe = (a: SecretAddress) =>
  `secret '${a.secretKey}' in environment '${a.environment}' at path '${a.secretPath}'`;

/**
 * Expands secrets' references for one request; folders are loaded once each and kept for the
 * expander's life (create one per request).
 */
export function createReferenceExpander(context: ReferenceContext) {
  const folders = new Map<string, Promise<ReadonlyMap<string, FolderSecret> | undefined>>();

  function folder(environment: string, secretPath: string) {
    const key = JSON.stringify([environment, secretPath]);
    let loaded = folders.get(key);
    if (!loaded) {
      loaded = context.loadFolder(environment, secretPath);
      folders.set(key, loaded);
    }
    return loaded;
  }

  async function expandValue(
    value: string,
    at: SecretAddress,
    branch: ReadonlySet<string>,
    depth: number,
    issues: ReferenceIssue[],
  ): Promise<string> {
    let output = value;
    for (const body of referencesIn(value)) {
      const reference = `\${${body}}`;
      const target = resolveReference(body, at);
      if (!target) {
        issues.push({ kind: "malformed", reference, in: at });
        continue;
      }
      const found = (await folder(target.environment, target.secretPath))?.get(target.secretKey);
      if (!context.canRead({ ...target, secretTags: found?.tags ?? [] })) {
        throw new ReferencePermissionError(
          `You do not have permission to read ${describe(target)}, which is referenced by ${describe(at)}`,
        );
      }
      if (!found) {
        issues.push({ kind: "missing", reference, in: at, target });
        continue;
      }
      if (branch.has(addressKey(target))) {
        issues.push({ kind: "cycle", reference, in: at, target });
        continue;
      }
      if (found.value === "") {
        issues.push({ kind: "empty", reference, in: at, target });
        continue;
      }
      let replacement = found.value;
      if (depth + 1 >= MAX_REFERENCE_DEPTH) {
        if (referencesIn(found.value).length > 0) issues.push({ kind: "depth", reference, in: at, target });
      } else {
        replacement = await expandValue(
          found.value,
          target,
          new Set([...branch, addressKey(target)]),
          depth + 1,
          issues,
        );
      }
      if (replacement !== "") output = output.split(reference).join(replacement);
    }
    return output;
  }

  /** One secret's value with its references expanded. */
  async function expand(
    secret: SecretAddress & { value: string; skipMultilineEncoding?: boolean },
  ): Promise<Expansion> {
    const issues: ReferenceIssue[] = [];
    if (secret.value === "" || referencesIn(secret.value).length === 0) return { value: secret.value, issues };
    const address = { environment: secret.environment, secretPath: secret.secretPath, secretKey: secret.secretKey };
    let value = await expandValue(secret.value, address, new Set([addressKey(address)]), 0, issues);
    // A secret kept on one line gets an expanded multi-line value quoted, its newlines escaped.
    if (secret.skipMultilineEncoding && value !== secret.value && value.includes("\n")) {
      value = `"${value.replace(/\n/g, "\\n")}"`;
    }
    return { value, issues };
  }

  return {
    expand,

    /**
     * Many secrets at once; one refused reference fails the whole call with a single 403 whose
     * details list every refusal, as Infisical's list does (a single secret keeps its own message).
     */
    async expandAll<S extends SecretAddress & { value: string; skipMultilineEncoding?: boolean }>(
      secrets: readonly S[],
    ): Promise<{ values: string[]; issues: ReferenceIssue[] }> {
      const settled = await Promise.allSettled(secrets.map(expand));
      const refused = settled.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      if (refused.length > 0) {
        const unexpected = refused.find((reason) => !(reason instanceof ReferencePermissionError));
        if (unexpected) throw unexpected;
        // One secret (a read of one): its own refusal says the most.
        if (secrets.length === 1) throw refused[0];
        throw new ReferencePermissionError(
          "Failed to expand one or more secret references",
          refused.map((reason) => (reason as Error).message),
        );
      }
      const done = settled as PromiseFulfilledResult<Expansion>[];
      return { values: done.map((r) => r.value.value), issues: done.flatMap((r) => r.value.issues) };
    },
  };
}

export type ReferenceExpander = ReturnType<typeof createReferenceExpander>;

import { endpoints } from "@keyhold/contract";
import { call } from "@/lib/api-client";
import { importPrecedence } from "@/lib/import-precedence";
import type { SecretFolder } from "../api";
import type { ExportedSecret } from "./dotenv-file";
import type { CurrentSecret } from "./import-plan";

const list = endpoints["secrets.list"];

const where = ({ projectId, environment, secretPath }: SecretFolder) => ({
  workspaceId: projectId,
  environment,
  secretPath,
});

const collator = new Intl.Collator("en");

/**
 * The two reads of values the import and export make, each for that purpose only: one list call
 * with values, answered to the caller and not cached (no query cache, no storage). References
 * (`${…}`) are kept as written, so what is exported imports back unchanged.
 */
export const filesApi = {
  /** The folder's own shared secrets, with values where the caller may read them, to compare an import with. */
  current: async (folder: SecretFolder, signal?: AbortSignal): Promise<CurrentSecret[]> => {
    const query = { ...where(folder), viewSecretValue: "true", expandSecretReferences: "false" };
    const { secrets } = await call(list, { query }, { signal });
    return secrets
      .filter((secret) => secret.type !== "personal")
      .map((secret) => ({
        secretKey: secret.secretKey,
        secretValue: secret.secretValueHidden ? undefined : secret.secretValue,
        secretComment: secret.secretComment,
      }));
  },

  /**
   * The folder's secrets with values, in key order, for an export; with `withImports`, also each
   * key its imports provide that the folder lacks, from the import that wins it (as the table
   * shows them). Secrets whose value the caller may not read are counted, not exported.
   */
  exported: async (folder: SecretFolder, withImports: boolean, signal?: AbortSignal) => {
    const query = {
      ...where(folder),
      viewSecretValue: "true",
      expandSecretReferences: "false",
      include_imports: withImports ? "true" : "false",
    };
    const { secrets, imports = [] } = await call(list, { query }, { signal });
    const own = secrets.filter((secret) => secret.type !== "personal");
    const chosen: { secretKey: string; secretValue: string; secretComment: string; secretValueHidden: boolean }[] = [
      ...own,
    ];
    if (withImports) {
      const precedence = importPrecedence(
        imports,
        (source) => source.secrets.map((secret) => secret.secretKey),
        own.map((secret) => secret.secretKey),
      );
      for (const source of imports) {
        for (const secret of source.secrets) {
          if (precedence.get(secret.secretKey)?.supplier !== source || secret.type === "personal") continue;
          precedence.delete(secret.secretKey);
          chosen.push(secret);
        }
      }
    }
    const readable: ExportedSecret[] = chosen
      .filter((secret) => !secret.secretValueHidden)
      .map(({ secretKey, secretValue, secretComment }) => ({ secretKey, secretValue, secretComment }))
      .sort((a, b) => collator.compare(a.secretKey, b.secretKey));
    return { secrets: readable, hidden: chosen.length - readable.length };
  },
};

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { type Config, ConfigError, dataFiles } from "../config.ts";
import { ensureDataDir, writeSecretFile } from "./files.ts";
import { decodeRootKey, ROOT_KEY_BYTES } from "./key-encoding.ts";

function decodeKey(text: string, origin: string): Buffer {
  const key = decodeRootKey(text);
  if (!key) throw new ConfigError(`${origin} must encode exactly ${ROOT_KEY_BYTES} bytes (base64 or hex)`);
  return key;
}

/**
 * The root key from KEYHOLD_ROOT_KEY (or KEYHOLD_ROOT_KEY_FILE, read with the configuration),
 * or from a 0600 key file in the data dir that is created on first start (never in production,
 * where the configuration requires the key). Several instances sharing one key accept each
 * other's tokens.
 */
export function loadRootKey(config: Config): Buffer {
  if (config.rootKey) return decodeKey(config.rootKey, "KEYHOLD_ROOT_KEY");
  ensureDataDir(config.dataDir);
  const file = dataFiles(config).rootKey;
  if (!fs.existsSync(file)) {
    // "wx" makes creation exclusive: when two instances start together, one key wins.
    writeSecretFile(file, randomBytes(ROOT_KEY_BYTES).toString("base64"), { exclusive: true });
  }
  return decodeKey(fs.readFileSync(file, "utf8"), `The key file ${file}`);
}

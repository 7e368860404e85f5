import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { type Config, ConfigError, dataFiles } from "../config.ts";
import { ensureDataDir, writeSecretFile } from "./files.ts";

const KEY_BYTES = 32;

function decodeKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== KEY_BYTES) {
    throw new ConfigError(`${origin} must encode exactly ${KEY_BYTES} bytes (base64 or hex)`);
  }
  return key;
}

/**
 * The root key from KEYHOLD_ROOT_KEY, or from a 0600 key file in the data dir that is
 * created on first start. Several instances sharing one key accept each other's tokens.
 */
export function loadRootKey(config: Config): Buffer {
  if (config.rootKey) return decodeKey(config.rootKey, "KEYHOLD_ROOT_KEY");
  ensureDataDir(config.dataDir);
  const file = dataFiles(config).rootKey;
  if (!fs.existsSync(file)) {
    // "wx" makes creation exclusive: when two instances start together, one key wins.
    writeSecretFile(file, randomBytes(KEY_BYTES).toString("base64"), { exclusive: true });
  }
  return decodeKey(fs.readFileSync(file, "utf8"), `The key file ${file}`);
}

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ConfigError } from "../config.ts";

/**
 * Creates the data dir (0700) when missing. One that cannot be created or written (a volume
 * owned by another user, a path through a file) is a configuration error naming the variable.
 */
export function ensureDataDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(`Invalid configuration: KEYHOLD_DATA_DIR: cannot create or write ${dir} (${reason})`);
  }
}

/**
 * Writes a file readable by its owner only. Replacing writes go through a temporary file
 * and a rename, so a reader never sees half a token; exclusive writes fail if the file exists.
 */
export function writeSecretFile(file: string, content: string, options: { exclusive?: boolean } = {}): void {
  if (options.exclusive) {
    try {
      fs.writeFileSync(file, content, { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return;
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}`);
  fs.writeFileSync(temp, content, { mode: 0o600, flag: "wx" });
  fs.renameSync(temp, file);
}

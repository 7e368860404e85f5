import { randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** "req-" and 14 random alphanumerics, as Infisical's request ids look. */
export function generateRequestId(): string {
  let id = "req-";
  for (let i = 0; i < 14; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

export const ROOT_KEY_BYTES = 32;

const HEX_KEY = /^[0-9a-f]{64}$/i;
/** Standard or URL-safe base64 of 32 bytes: 43 characters and an optional "=". */
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/** The root key's bytes from its text form (hex or base64), or undefined when it is not 32 bytes. */
export function decodeRootKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (HEX_KEY.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!BASE64_KEY.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, "base64");
  return key.length === ROOT_KEY_BYTES ? key : undefined;
}

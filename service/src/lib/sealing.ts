import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * AES-256-GCM for credentials kept in the database (a Kubernetes reviewer JWT, …), with a key
 * derived from the root key for that purpose only. The associated data names the row and the
 * column, so a ciphertext copied to another row or column does not open.
 */
export interface Sealer {
  seal(plaintext: string, boundTo: string): string;
  open(sealed: string, boundTo: string): string;
}

export function createSealer(rootKey: Buffer, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync("sha256", rootKey, "keyhold", `keyhold/${purpose}/aes-256-gcm/${VERSION}`, 32));
  return {
    seal(plaintext, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(boundTo, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(
        ".",
      );
    },
    open(sealed, boundTo) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error("Not a sealed value of this version");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      decipher.setAAD(Buffer.from(boundTo, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
    },
  };
}

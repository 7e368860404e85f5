import { createHash, createHmac } from "node:crypto";

/**
 * AWS Signature Version 4 for an STS request, enough for the loopback STS: the test signs
 * GetCallerIdentity as an AWS SDK would, and the stand-in checks the signature over what it
 * received, so any change the service makes to the method, body or signed headers is caught.
 */
const sha256 = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

export function sigV4Signature(input: {
  secretKey: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  signedHeaders: string[];
  body: string;
  date: string;
  region: string;
}): string {
  const amzDate = input.headers["x-amz-date"] ?? "";
  const canonicalRequest = [
    input.method,
    input.path,
    "",
    ...input.signedHeaders.map((name) => `${name}:${(input.headers[name] ?? "").trim()}`),
    "",
    input.signedHeaders.join(";"),
    sha256(input.body),
  ].join("\n");
  const scope = `${input.date}/${input.region}/sts/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretKey}`, input.date), input.region), "sts"), "aws4_request");
  return createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
}

export const GET_CALLER_IDENTITY = "Action=GetCallerIdentity&Version=2011-06-15";

/** The headers an SDK sends with a signed GetCallerIdentity request (names lower-case). */
export function signGetCallerIdentity(accessKeyId: string, secretKey: string, region = "us-east-1") {
  const date = "20260115";
  const headers: Record<string, string> = {
    host: "sts.amazonaws.com",
    "content-type": "application/x-www-form-urlencoded; charset=utf-8",
    "x-amz-date": `${date}T120000Z`,
  };
  const signedHeaders = ["content-type", "host", "x-amz-date"];
  const signature = sigV4Signature({
    secretKey,
    method: "POST",
    path: "/",
    headers,
    signedHeaders,
    body: GET_CALLER_IDENTITY,
    date,
    region,
  });
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${date}/${region}/sts/aws4_request, SignedHeaders=${signedHeaders.join(";")}, Signature=${signature}`,
  };
}

/** Checks a received request's SigV4 signature with the secret of the access key it names. */
export function verifySigV4(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string },
  secretOf: (accessKeyId: string) => string | undefined,
): string | undefined {
  const authorization = String(request.headers.authorization ?? "");
  const match =
    /Credential=([^/]+)\/(\d{8})\/([^/]+)\/sts\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]+)/.exec(
      authorization,
    );
  if (!match) return undefined;
  const [, accessKeyId = "", date = "", region = "", signed = "", signature] = match;
  const secretKey = secretOf(accessKeyId);
  if (!secretKey) return undefined;
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v ?? "")]));
  const expected = sigV4Signature({
    secretKey,
    method: request.method,
    path: request.url,
    headers,
    signedHeaders: signed.split(";"),
    body: request.body,
    date,
    region,
  });
  return expected === signature ? accessKeyId : undefined;
}

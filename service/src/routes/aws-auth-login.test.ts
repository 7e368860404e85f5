import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalArnOf } from "@keyhold/contract/credential-rules";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer, unusedLoopbackUrl } from "../test/loopback.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";
import { GET_CALLER_IDENTITY, signGetCallerIdentity, verifySigV4 } from "../test/sigv4.ts";

const issued = endpoints["awsAuth.login"].response;

/** The principals the stand-in STS knows: access key → secret and who it is. */
const principals: Record<string, { secret: string; account: string; arn: string }> = {
  AKIADEPLOYER: {
    secret: "deployer-secret",
    account: "111122223333",
    arn: "arn:aws:sts::111122223333:assumed-role/deployer/i-0abc123",
  },
  AKIAUSERJANE: { secret: "jane-secret", account: "111122223333", arn: "arn:aws:iam::111122223333:user/jane" },
  AKIAOTHERACCT: { secret: "other-secret", account: "444455556666", arn: "arn:aws:iam::444455556666:role/deployer" },
};

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

function stsAnswer(account: string, arn: string): string {
  return `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>${arn}</Arn>
    <UserId>AROAEXAMPLE:session</UserId>
    <Account>${account}</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>`;
}

const signatureMismatch = `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>
</ErrorResponse>`;

describe("principalArnOf", () => {
  it("turns an assumed-role session's ARN into its role's ARN and leaves others alone", () => {
    expect(principalArnOf("arn:aws:sts::111122223333:assumed-role/deployer/i-0abc")).toBe(
      "arn:aws:iam::111122223333:role/deployer",
    );
    expect(principalArnOf("arn:aws:iam::111122223333:user/jane")).toBe("arn:aws:iam::111122223333:user/jane");
  });
});

describeEachDatabase("AWS auth login against an STS endpoint on loopback", (kind) => {
  let svc: TestService;
  let sts: LoopbackPeer;
  beforeAll(async () => {
    svc = await startService({ kind });
    sts = await startLoopbackPeer((request) => {
      if (request.method !== "POST" || request.body !== GET_CALLER_IDENTITY) {
        return { status: 400, body: signatureMismatch };
      }
      const accessKeyId = verifySigV4(request, (key) => principals[key]?.secret);
      const principal = accessKeyId ? principals[accessKeyId] : undefined;
      return principal
        ? { body: stsAnswer(principal.account, principal.arn) }
        : { status: 403, body: signatureMismatch };
    });
  });
  afterAll(async () => {
    await sts?.close();
    await svc?.close();
  });

  /** An identity with org role member (its tokens may read identities) and AWS auth attached. */
  async function awsIdentity(name: string, attach: Record<string, unknown> = {}) {
    const res = await svc.endpoint("identities.create", {
      body: { name, organizationId: svc.info.orgId, role: "member" },
    });
    const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
    const attached = await svc.endpoint("awsAuth.attach", {
      params: { identityId },
      body: {
        stsEndpoint: `${sts.url}/`,
        allowedAccountIds: "111122223333",
        allowedPrincipalArns: "arn:aws:iam::111122223333:role/deployer, arn:aws:iam::111122223333:user/ops-*",
        accessTokenTTL: 600,
        accessTokenMaxTTL: 6000,
        ...attach,
      },
    });
    expect(attached.status).toBe(200);
    return identityId;
  }

  function loginAs(identityId: string, accessKeyId: string, overrides: Record<string, unknown> = {}) {
    const secret = principals[accessKeyId]?.secret ?? "wrong-secret";
    return svc.endpoint(
      "awsAuth.login",
      {
        body: {
          identityId,
          iamHttpRequestMethod: "POST",
          iamRequestUrl: b64("https://sts.amazonaws.com/"),
          iamRequestBody: b64(GET_CALLER_IDENTITY),
          iamRequestHeaders: b64(JSON.stringify(signGetCallerIdentity(accessKeyId, secret))),
          ...overrides,
        },
      },
      { token: null },
    );
  }

  async function tokensOf(identityId: string) {
    return svc.app.db.selectFrom("identity_access_tokens").selectAll().where("identity_id", "=", identityId).execute();
  }

  describe("happy path", () => {
    it("forwards the signed request to STS unchanged, answers as a sign-in does, and the token works", async () => {
      const identityId = await awsIdentity("aws-good");
      const before = sts.received.length;
      const res = await loginAs(identityId, "AKIADEPLOYER");
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("025-")));
      const body = issued.parse(res.body);
      expect(body).toMatchObject({ expiresIn: 600, accessTokenMaxTTL: 6000, tokenType: "Bearer" });
      expect(sts.received.slice(before)).toMatchObject([
        { method: "POST", url: "/", body: GET_CALLER_IDENTITY, headers: { host: "sts.amazonaws.com" } },
      ]);

      const read = await svc.endpoint("identities.get", { params: { identityId } }, { token: body.accessToken });
      expect(read.status).toBe(200);
      expect(await tokensOf(identityId)).toMatchObject([
        { auth_method: "aws-auth", access_token_ttl: 600, access_token_max_ttl: 6000 },
      ]);
    });

    it("empty allow-lists allow any principal STS vouches for", async () => {
      const identityId = await awsIdentity("aws-open", { allowedAccountIds: "", allowedPrincipalArns: "" });
      expect((await loginAs(identityId, "AKIAOTHERACCT")).status).toBe(200);
    });

    it("an allowed ARN with * matches any characters there", async () => {
      const identityId = await awsIdentity("aws-glob", { allowedPrincipalArns: "arn:aws:iam::111122223333:user/*" });
      expect((await loginAs(identityId, "AKIAUSERJANE")).status).toBe(200);
    });
  });

  describe("refusals", () => {
    it("refuses an account not allowed with 401", async () => {
      const identityId = await awsIdentity("aws-account", { allowedPrincipalArns: "" });
      const res = await loginAs(identityId, "AKIAOTHERACCT");
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toBe("AWS account ID not allowed.");
      expect(await tokensOf(identityId)).toEqual([]);
    });

    it("refuses a principal not allowed with 401, naming the principal ARN", async () => {
      const identityId = await awsIdentity("aws-arn");
      const res = await loginAs(identityId, "AKIAUSERJANE");
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toBe(
        "AWS principal ARN not allowed. [principal-arn=arn:aws:iam::111122223333:user/jane]",
      );
      expect(await tokensOf(identityId)).toEqual([]);
    });

    it("refuses with 401 when STS rejects the signature (a wrong secret)", async () => {
      const identityId = await awsIdentity("aws-bad-signature");
      const res = await loginAs(identityId, "AKIAUNKNOWN");
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toMatch(/HTTP 403.*signature we calculated does not match/);
    });

    it("refuses with 401 when the body was changed after signing", async () => {
      const identityId = await awsIdentity("aws-tampered");
      const res = await loginAs(identityId, "AKIADEPLOYER", {
        iamRequestBody: b64("Action=GetCallerIdentity&Version=2011-06-15&x=1"),
      });
      expect(res.status).toBe(401);
    });

    it("answers 400 for headers that are not base64 JSON or carry no SigV4 region", async () => {
      const identityId = await awsIdentity("aws-400");
      const notJson = await loginAs(identityId, "AKIADEPLOYER", { iamRequestHeaders: b64("not json") });
      expect(notJson.status).toBe(400);
      const unsigned = await loginAs(identityId, "AKIADEPLOYER", { iamRequestHeaders: b64(JSON.stringify({})) });
      expect(unsigned.status).toBe(400);
      expect(ErrorBodySchema.parse(unsigned.body).message).toBe("Invalid AWS region");
    });

    it("answers 502 when the STS endpoint cannot be reached", async () => {
      const identityId = await awsIdentity("aws-unreachable", { stsEndpoint: await unusedLoopbackUrl() });
      const res = await loginAs(identityId, "AKIADEPLOYER");
      expect(res.status).toBe(502);
      expect(ErrorBodySchema.parse(res.body).error).toBe("BadGateway");
    });

    it("answers 404 for an identity without AWS auth and 422 for a body that is not base64", async () => {
      const res = await svc.endpoint("identities.create", {
        body: { name: "aws-none", organizationId: svc.info.orgId, role: "member" },
      });
      const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
      const refused = await loginAs(identityId, "AKIADEPLOYER");
      expect(refused.status).toBe(404);
      expect(ErrorBodySchema.parse(refused.body).message).toBe(
        "AWS auth method not found for identity, did you configure AWS auth?",
      );
      expect((await loginAs(identityId, "AKIADEPLOYER", { iamRequestHeaders: "%%%" })).status).toBe(422);
    });
  });
});

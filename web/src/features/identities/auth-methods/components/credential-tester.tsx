import type { DryRunLoginResult } from "@keyhold/contract";

import { CircleCheck, CircleDashed, CircleX } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { type UseFormReturn, useWatch } from "react-hook-form";
import { InlineError, UnavailableNote } from "@/components/layout/settings-section";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useNow } from "@/hooks/use-now";
import { useServerFeature } from "@/hooks/use-server-feature";
import { isMissingRoute } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { formatCountdown } from "@/lib/countdown";
import { errorSummary } from "@/lib/describe-error";
import { type Decoded, dryRunCredential, testCredential } from "../credential-tester";
import type { AuthMethodDescriptor, CredentialTesterSpec } from "../descriptor";
import { type AuthMethodFormValues, wireValuesOf } from "../form";
import { useDryRunLogin } from "../mutations";

/** A rule's outcome, as the browser works it out and as the dry run answers it. */
type CredentialCheck = DryRunLoginResult["checks"][number];

interface CredentialTesterProps {
  form: UseFormReturn<AuthMethodFormValues>;
  descriptor: AuthMethodDescriptor;
  tester: CredentialTesterSpec;
  identityId: string;
}

/**
 * "Test a credential": a pasted credential, decoded in the browser, against the form's unsaved
 * settings, rule by rule; then, on request, the real login as a dry run through the service.
 * What is pasted lives only in this component's state.
 */
export function CredentialTester({ form, descriptor, tester, identityId }: CredentialTesterProps) {
  const id = useId();
  const [pasted, setPasted] = useState("");
  const values = useWatch({ control: form.control }) as AuthMethodFormValues;
  const settings = useMemo(() => wireValuesOf(descriptor, values, tester.settings), [descriptor, values, tester]);

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="grid min-w-0 gap-3 rounded-md border border-border bg-surface px-3 py-3 wrap-anywhere"
    >
      <div className="grid gap-1">
        <h3 id={`${id}-title`} className="text-[13px] font-medium">
          Test a credential
        </h3>
        <p className="text-[13px] text-muted-foreground">
          See, rule by rule, whether the settings above would accept it, before they are saved. Nothing pasted here is
          kept or sent until you try a real sign-in.
        </p>
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-credential`} className="text-[13px] font-medium">
          {tester.credential}
        </label>
        <Textarea
          id={`${id}-credential`}
          value={pasted}
          onChange={(event) => setPasted(event.target.value)}
          placeholder={tester.placeholder}
          rows={3}
          className="min-h-16 font-mono text-xs break-all"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-unchecked`}
        />
        <p id={`${id}-unchecked`} className="text-xs text-muted-foreground">
          Decoded in your browser — {tester.unchecked}.
        </p>
      </div>
      {pasted.trim() ? <BrowserVerdict tester={tester} pasted={pasted} settings={settings} /> : null}
      <DryRun
        descriptor={descriptor}
        tester={tester}
        identityId={identityId}
        settings={settings}
        pasted={tester.dryRun.credential ? undefined : pasted}
      />
    </section>
  );
}

interface BrowserVerdictProps {
  tester: CredentialTesterSpec;
  pasted: string;
  settings: Record<string, unknown>;
}

/** The browser's reading, re-run each second so expiry and not-before stay true. */
function BrowserVerdict({ tester, pasted, settings }: BrowserVerdictProps) {
  const now = useNow();
  const reading = testCredential(tester.kind, pasted, settings, now);
  if (!reading.ok) {
    return (
      <p role="alert" className="text-[13px] text-destructive-subtle-foreground">
        {reading.message}
      </p>
    );
  }
  const { decoded } = reading;
  return (
    <div className="grid gap-3">
      <Verdict checks={decoded.checks} accepted={`Would be accepted (${tester.unchecked})`} />
      <Facts decoded={decoded} now={now} />
      <CheckList checks={decoded.checks} label="Rules, checked in your browser" />
    </div>
  );
}

/** The first failing rule and the words the login would answer, or that every rule passes. */
function Verdict({ checks, accepted }: { checks: readonly CredentialCheck[]; accepted: string }) {
  const failed = checks.find((check) => check.outcome === "fail");
  if (!failed) {
    return (
      <p
        role="status"
        className="flex items-start gap-2 rounded-md bg-success-subtle px-3 py-2 text-[13px] text-success-subtle-foreground"
      >
        <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
        {accepted}
      </p>
    );
  }
  return (
    <div
      role="status"
      className="grid gap-0.5 rounded-md bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
    >
      <p className="flex items-start gap-2 font-medium">
        <CircleX aria-hidden className="mt-0.5 size-4 shrink-0" />
        Would be refused: {failed.label}
      </p>
      {failed.refusal ? <Refusal refusal={failed.refusal} /> : null}
    </div>
  );
}

function Refusal({ refusal }: { refusal: NonNullable<CredentialCheck["refusal"]> }) {
  return (
    <p className="pl-6">
      The sign-in would answer {refusal.statusCode}: <span className="font-mono text-xs">{refusal.message}</span>
    </p>
  );
}

function Facts({ decoded, now }: { decoded: Decoded; now: number }) {
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-[13px]">
        {decoded.facts.map((fact) => (
          <div key={fact.label} className="contents">
            <dt className="text-muted-foreground">{fact.label}</dt>
            <dd className="font-mono text-xs leading-5 break-all">{fact.value}</dd>
          </div>
        ))}
        {decoded.expiresAt !== undefined ? (
          <div className="contents">
            <dt className="text-muted-foreground">Expires</dt>
            <dd className="text-xs leading-5">
              {decoded.expiresAt > now ? `in ${formatCountdown(decoded.expiresAt - now)}` : "Expired"}{" "}
              <span className="font-mono text-muted-foreground">({new Date(decoded.expiresAt).toISOString()})</span>
            </dd>
          </div>
        ) : null}
      </dl>
      {decoded.parts.map((part) => (
        <details key={part.title} className="text-[13px]">
          <summary className="cursor-pointer rounded-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring">
            {part.title}
          </summary>
          <pre className="mt-1 max-h-60 overflow-auto rounded-md border border-border bg-card p-2 font-mono text-xs whitespace-pre-wrap break-all">
            {JSON.stringify(part.value, null, 2)}
          </pre>
        </details>
      ))}
    </div>
  );
}

const OUTCOME = {
  pass: { word: "Passes", tone: "success", Icon: CircleCheck, colour: "text-success-subtle-foreground" },
  fail: { word: "Fails", tone: "destructive", Icon: CircleX, colour: "text-destructive-subtle-foreground" },
  skip: { word: "Not configured", tone: "outline", Icon: CircleDashed, colour: "text-muted-foreground" },
} as const;

/** Every rule with its outcome and what the credential holds; the first failure stands out. */
export function CheckList({ checks, label }: { checks: readonly CredentialCheck[]; label: string }) {
  const first = checks.findIndex((check) => check.outcome === "fail");
  return (
    <ul aria-label={label} className="grid gap-1">
      {checks.map((check, index) => {
        const { word, tone, Icon, colour } = OUTCOME[check.outcome];
        return (
          <li
            key={check.rule}
            className={cn(
              "flex items-start gap-2 rounded-md px-2 py-1.5 text-[13px]",
              index === first && "border border-destructive/40 bg-destructive-subtle",
            )}
          >
            <Icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", colour)} />
            <div className="grid min-w-0 flex-1 gap-0.5">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="min-w-0 font-medium wrap-anywhere">{check.label}</span>
                <Badge tone={tone}>{word}</Badge>
              </div>
              <span className="text-muted-foreground wrap-anywhere">{check.detail}</span>
              {index === first && check.refusal ? (
                <span className="text-destructive-subtle-foreground">
                  The sign-in would answer {check.refusal.statusCode}:{" "}
                  <span className="font-mono text-xs">{check.refusal.message}</span>
                </span>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

interface DryRunProps {
  descriptor: AuthMethodDescriptor;
  tester: CredentialTesterSpec;
  identityId: string;
  settings: Record<string, unknown>;
  /** The credential to send; undefined when the dry run takes its own paste (AWS's signed request). */
  pasted: string | undefined;
}

/** "Try a real sign-in": the service runs the login against the peer with these settings, issuing nothing. */
function DryRun({ descriptor, tester, identityId, settings, pasted }: DryRunProps) {
  const id = useId();
  const feature = useServerFeature("dryRunLogin");
  const dryRun = useDryRunLogin(descriptor, identityId);
  const [loginBody, setLoginBody] = useState("");
  const source = pasted ?? loginBody;
  const credential = source.trim() ? dryRunCredential(tester.kind, source) : undefined;
  const request = credential?.ok ? { settings, credential: credential.credential } : undefined;
  // An answer holds for what was sent: once the settings or the credential change, it is not shown.
  const fresh = dryRun.variables !== undefined && JSON.stringify(dryRun.variables) === JSON.stringify(request);

  if (!feature.available || isMissingRoute(dryRun.error)) {
    return (
      <UnavailableNote>This server cannot dry-run a sign-in. The check in your browser still applies.</UnavailableNote>
    );
  }
  const run = () => {
    if (request) dryRun.mutate(request);
  };
  return (
    <div className="grid gap-2 border-t border-border pt-3">
      {tester.dryRun.credential ? (
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-body`} className="text-[13px] font-medium">
            {tester.dryRun.credential.label}
          </label>
          <Textarea
            id={`${id}-body`}
            value={loginBody}
            onChange={(event) => setLoginBody(event.target.value)}
            placeholder={tester.dryRun.credential.placeholder}
            rows={3}
            className="min-h-16 font-mono text-xs break-all"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Button
          size="sm"
          onClick={run}
          disabled={!request || dryRun.isPending}
          aria-busy={dryRun.isPending || undefined}
        >
          {dryRun.isPending ? <Spinner /> : null}
          Try a real sign-in (dry run)
        </Button>
        <span className="text-xs text-muted-foreground">
          {credential && !credential.ok
            ? credential.message
            : "The service asks the peer, with these unsaved settings. No token is issued."}
        </span>
      </div>
      <div aria-live="polite" className="grid gap-2">
        {!fresh ? null : dryRun.isError ? (
          <InlineError onRetry={run}>{errorSummary(dryRun.error, "Could not try the sign-in")}</InlineError>
        ) : dryRun.data ? (
          <DryRunAnswer result={dryRun.data} />
        ) : null}
      </div>
    </div>
  );
}

function DryRunAnswer({ result }: { result: DryRunLoginResult }) {
  return (
    <div className="grid gap-2" role="group" aria-label="Dry run answer">
      <p
        className={cn(
          "grid gap-0.5 rounded-md px-3 py-2 text-[13px]",
          result.accepted
            ? "bg-success-subtle text-success-subtle-foreground"
            : "bg-destructive-subtle text-destructive-subtle-foreground",
        )}
      >
        <span className="flex items-start gap-2 font-medium">
          {result.accepted ? (
            <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
          ) : (
            <CircleX aria-hidden className="mt-0.5 size-4 shrink-0" />
          )}
          {result.accepted ? "The service would accept this sign-in." : "The service would refuse this sign-in."} No
          token was issued.
        </span>
        {result.refusal ? (
          <span className="pl-6">
            The sign-in would answer {result.refusal.statusCode}:{" "}
            <span className="font-mono text-xs">{result.refusal.message}</span>
          </span>
        ) : null}
      </p>
      <p className="flex items-start gap-2 text-[13px]">
        {result.peer.ok ? (
          <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-success-subtle-foreground" />
        ) : (
          <CircleX aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive-subtle-foreground" />
        )}
        <span className="min-w-0 wrap-anywhere">
          <span className="font-medium">The peer: </span>
          {result.peer.message}
          {result.peer.statusCode !== undefined ? ` (HTTP ${result.peer.statusCode})` : ""}
        </span>
      </p>
      {result.checks.length > 0 ? <CheckList checks={result.checks} label="Rules the service applied" /> : null}
    </div>
  );
}

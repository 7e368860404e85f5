import type { ClientAddress } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck, CircleX } from "lucide-react";
import { useId, useState } from "react";
import { type UseFormReturn, useWatch } from "react-hook-form";
import { InlineError } from "@/components/layout/settings-section";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorSummary } from "@/lib/describe-error";
import type { FieldSpec } from "../descriptor";
import type { AuthMethodFormValues, TrustedIpRow } from "../form";
import { authMethodQueries } from "../queries";
import { readTestAddress, wouldPass } from "../trusted-ips";

interface AddressCheckProps {
  form: UseFormReturn<AuthMethodFormValues>;
  /** The form's trusted-IP lists; each is checked as typed, before it is saved. */
  fields: readonly FieldSpec[];
}

/**
 * "Would this address pass?": an address checked against every trusted-IP list of the form as it
 * stands, by the service's own rule, naming the entry that admits it. Starts from the address the
 * service sees for this browser.
 */
export function AddressCheck({ form, fields }: AddressCheckProps) {
  const id = useId();
  const client = useQuery(authMethodQueries.clientAddress());
  const [text, setText] = useState("");
  const values = useWatch({ control: form.control }) as AuthMethodFormValues;
  const typed = readTestAddress(text);

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="grid gap-3 rounded-md border border-border bg-surface px-3 py-3"
    >
      <h3 id={`${id}-title`} className="text-[13px] font-medium">
        Would this address pass?
      </h3>
      <YourAddress query={client} onUse={(address) => setText(address)} />
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-address`} className="text-[13px] text-muted-foreground">
          Address to check against the lists above, as they would be saved
        </label>
        <Input
          id={`${id}-address`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="e.g. 203.0.113.7"
          className="font-mono text-[13px] sm:max-w-xs"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!typed.ok && typed.message ? true : undefined}
          aria-describedby={!typed.ok && typed.message ? `${id}-address-error` : undefined}
        />
        {!typed.ok && typed.message ? (
          <p id={`${id}-address-error`} className="text-[13px] text-destructive-subtle-foreground">
            {typed.message}
          </p>
        ) : null}
      </div>
      {typed.ok ? (
        <ul aria-label={`Verdicts for ${typed.address}`} aria-live="polite" className="grid gap-1.5">
          {fields.map((field) => {
            const rows = (values[field.name] ?? []) as TrustedIpRow[];
            const verdict = wouldPass(
              typed.address,
              rows.map((row) => row.ipAddress),
            );
            return (
              <li key={field.name} className="flex items-start gap-2 text-[13px]">
                {verdict.passes ? (
                  <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-success-subtle-foreground" />
                ) : (
                  <CircleX aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive-subtle-foreground" />
                )}
                <span>
                  <span className="font-medium">{field.label}:</span>{" "}
                  {verdict.passes ? (
                    <>
                      passes, admitted by <span className="font-mono">{verdict.entry}</span> (row {verdict.row + 1})
                    </>
                  ) : rows.length === 0 ? (
                    "refused: the list is empty"
                  ) : (
                    "refused: no entry holds this address"
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

interface YourAddressProps {
  query: ReturnType<typeof useQuery<ClientAddress>>;
  onUse: (address: string) => void;
}

/** The address the service sees for this browser, and how the console's server read it. */
function YourAddress({ query, onUse }: YourAddressProps) {
  if (query.isError) {
    return (
      <InlineError onRetry={() => void query.refetch()}>
        {errorSummary(query.error, "Could not read the address the service sees for you")}
      </InlineError>
    );
  }
  if (!query.data) return <Skeleton className="h-10 w-full" />;
  const { address } = query.data;
  return (
    <div className="grid gap-1 text-[13px]">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="text-muted-foreground">The service sees you at</span>
        <span className="font-mono">{address}</span>
        <Button variant="ghost" size="sm" onClick={() => onUse(address)}>
          Check my address
        </Button>
      </div>
      <p className="text-muted-foreground">{howRead(query.data)}</p>
    </div>
  );
}

/** The BFF's trusted-proxy setting, and what it made of this request. */
export function howRead({ connectedFrom, trustedProxies, viaTrustedProxy }: ClientAddress): string {
  const proxies = trustedProxies.join(", ");
  if (trustedProxies.length === 0) {
    return "Read from the connection: the console's server trusts no proxy's X-Forwarded-For (KEYHOLD_TRUSTED_PROXIES is not set).";
  }
  if (viaTrustedProxy) {
    return `Read from the X-Forwarded-For of ${connectedFrom}, a trusted proxy (KEYHOLD_TRUSTED_PROXIES: ${proxies}).`;
  }
  return `Read from the connection (${connectedFrom}), which is not one of the trusted proxies (KEYHOLD_TRUSTED_PROXIES: ${proxies}).`;
}

import type { IdentityMembership } from "@keyhold/contract";
import { useServerFeature } from "@/hooks/use-server-feature";
import { authMethods } from "../descriptors";
import { AuthMethodRow } from "./auth-method-row";

/** Every method the console knows, attached or not, with what can be done to each. */
export function AuthMethodsSection({ identity }: { identity: IdentityMembership["identity"] }) {
  const multiple = useServerFeature("multipleAuthMethods");
  const attached = new Set(identity.authMethods);
  const attachBlocked =
    !multiple.available && attached.size > 0
      ? (multiple.reason ?? "This server allows one auth method per identity.")
      : undefined;

  return (
    <section aria-labelledby="identity-auth-methods" className="rounded-xl border border-border bg-card shadow-xs">
      <div className="border-b border-border px-4 py-3">
        <h2 id="identity-auth-methods" className="text-sm font-semibold">
          Auth methods
        </h2>
        <p className="mt-0.5 text-[13px] text-muted-foreground">
          {attached.size > 0
            ? "How this identity signs in. Revoking a method ends every token it issued."
            : "None attached: this identity cannot sign in until one is."}
        </p>
      </div>
      <ul className="divide-y divide-border">
        {authMethods.map((descriptor) => (
          <AuthMethodRow
            key={descriptor.name}
            descriptor={descriptor}
            identityId={identity.id}
            attached={attached.has(descriptor.name)}
            lockedOut={identity.activeLockoutAuthMethods?.includes(descriptor.name) ?? false}
            attachBlocked={attachBlocked}
          />
        ))}
      </ul>
    </section>
  );
}

import type { AccessTokenRecord } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useRevokeToken } from "../mutations";
import { credentialQueries } from "../queries";
import { tokenState, usesLabel } from "@/lib/credential-status";
import {
  CredentialsPanel,
  DateText,
  ExpiryText,
  ListStates,
  RevokeCredentialDialog,
  StatusBadge,
} from "./credential-table-parts";
import { RenameTokenDialog } from "./rename-token-dialog";

const displayName = (token: AccessTokenRecord) => token.name || "Unnamed token";

/** The identity's token-auth tokens, revoked ones included, with rename and revoke. */
export function TokensTable({ identityId }: { identityId: string }) {
  const query = useQuery(credentialQueries.tokens(identityId));
  const revoke = useRevokeToken(identityId);
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const [revoking, setRevoking] = useState<AccessTokenRecord>();

  return (
    <CredentialsPanel
      headingId="token-auth-tokens"
      title="Access tokens"
      description="Tokens issued through token auth. Usage and expiry are as of the last refresh."
    >
      <ListStates query={query} what="access tokens" empty="No tokens yet. Create one to give this identity access.">
        {(tokens) => (
          <Table aria-labelledby="token-auth-tokens">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Uses</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tokens.map((token) => {
                const state = tokenState(token);
                const name = displayName(token);
                return (
                  <TableRow key={token.id}>
                    <TableCell className="font-medium">
                      <span className={token.name ? undefined : "text-muted-foreground"}>{name}</span>
                    </TableCell>
                    <TableCell className="text-[13px]">
                      <DateText iso={token.createdAt} />
                    </TableCell>
                    <TableCell className="text-[13px]">
                      <DateText iso={token.accessTokenLastUsedAt} />
                    </TableCell>
                    <TableCell className="font-mono text-xs tabular-nums">{usesLabel(state)}</TableCell>
                    <TableCell className="text-[13px]">
                      <ExpiryText state={state} />
                    </TableCell>
                    <TableCell>
                      <StatusBadge status={state.status} />
                    </TableCell>
                    <TableCell className="text-right whitespace-nowrap">
                      {token.isAccessTokenRevoked ? null : (
                        <div className="flex justify-end gap-1">
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Rename ${name}`}
                            onClick={() => setRenaming({ id: token.id, name: token.name ?? "" })}
                          >
                            Rename
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            className="text-destructive-subtle-foreground"
                            aria-label={`Revoke ${name}`}
                            onClick={() => setRevoking(token)}
                          >
                            Revoke
                          </Button>
                        </div>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </ListStates>
      <RenameTokenDialog identityId={identityId} token={renaming} onClose={() => setRenaming(undefined)} />
      <RevokeCredentialDialog
        target={revoking && { id: revoking.id, name: displayName(revoking) }}
        noun="token"
        description="Anything using this token is refused from its next request. This cannot be undone."
        confirmLabel="Revoke token"
        revoke={revoke}
        onClose={() => setRevoking(undefined)}
      />
    </CredentialsPanel>
  );
}

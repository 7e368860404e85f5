import type { ClientSecretRecord } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useRevokeClientSecret } from "../mutations";
import { credentialQueries } from "../queries";
import { clientSecretState, usesLabel } from "@/lib/credential-status";
import { CreateClientSecretDialog } from "./create-client-secret-dialog";
import {
  CredentialsPanel,
  DateText,
  ExpiryText,
  ListStates,
  RevokeCredentialDialog,
  StatusBadge,
} from "./credential-table-parts";

const displayName = (secret: ClientSecretRecord) => secret.description || `Secret ${secret.clientSecretPrefix}…`;

/** The identity's universal-auth client secrets that are not revoked, with create and revoke. */
export function ClientSecretsTable({ identityId }: { identityId: string }) {
  const query = useQuery(credentialQueries.clientSecrets(identityId));
  const revoke = useRevokeClientSecret(identityId);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ClientSecretRecord>();

  return (
    <CredentialsPanel
      headingId="universal-auth-client-secrets"
      title="Client secrets"
      description="Each signs in together with the client ID. Revoked secrets are not listed."
      action={
        <Button size="sm" onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          Create client secret
        </Button>
      }
    >
      <ListStates
        query={query}
        what="client secrets"
        empty="No client secrets. Create one so this identity can sign in with universal auth."
      >
        {(secrets) => (
          <Table aria-labelledby="universal-auth-client-secrets">
            <TableHeader>
              <TableRow>
                <TableHead>Description</TableHead>
                <TableHead>Secret</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Uses</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {secrets.map((secret) => {
                const state = clientSecretState(secret);
                return (
                  <TableRow key={secret.id}>
                    <TableCell className="font-medium">
                      {secret.description || <span className="text-muted-foreground">No description</span>}
                    </TableCell>
                    <TableCell className="font-mono text-xs">{secret.clientSecretPrefix}…</TableCell>
                    <TableCell className="text-[13px]">
                      <DateText iso={secret.createdAt} />
                    </TableCell>
                    <TableCell className="font-mono text-xs tabular-nums">{usesLabel(state)}</TableCell>
                    <TableCell className="text-[13px]">
                      <ExpiryText state={state} />
                    </TableCell>
                    <TableCell>
                      <StatusBadge status={state.status} />
                    </TableCell>
                    <TableCell className="text-right">
                      {secret.isClientSecretRevoked ? null : (
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-destructive-subtle-foreground"
                          aria-label={`Revoke ${displayName(secret)}`}
                          onClick={() => setRevoking(secret)}
                        >
                          Revoke
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </ListStates>
      <CreateClientSecretDialog identityId={identityId} open={creating} onOpenChange={setCreating} />
      <RevokeCredentialDialog
        target={revoking && { id: revoking.id, name: displayName(revoking) }}
        noun="client secret"
        description="Logins with this secret are refused from now on. Tokens it already issued keep working until they expire."
        confirmLabel="Revoke secret"
        revoke={revoke}
        onClose={() => setRevoking(undefined)}
      />
    </CredentialsPanel>
  );
}

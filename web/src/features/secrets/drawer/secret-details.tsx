import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api-error";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import { SecretForm } from "./secret-form-view";

interface SecretDetailsProps {
  folder: SecretFolder;
  secretKey: string;
  onDirtyChange: (dirty: boolean) => void;
  onRenamed: (newKey: string) => void;
}

/** The secret read afresh, then its form; a skeleton while it loads, and what failed if it does. */
export function SecretDetails({ folder, secretKey, onDirtyChange, onRenamed }: SecretDetailsProps) {
  const query = useQuery(secretQueries.value(folder, secretKey));

  if (query.isPending) {
    return (
      <div className="grid gap-5 p-6" aria-busy="true" aria-label="Loading the secret">
        {["h-9", "h-28", "h-9", "h-16"].map((height, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          <div key={i} className="grid gap-2">
            <Skeleton className="h-3 w-24" />
            <Skeleton className={`w-full ${height}`} />
          </div>
        ))}
      </div>
    );
  }
  if (query.isError) {
    if (isApiError(query.error, 404)) {
      return (
        <div className="p-6">
          <EmptyState
            icon={KeyRound}
            title="Secret not found"
            description={`There is no secret named ${secretKey} in ${folder.environment} at ${folder.secretPath}. It may have been renamed or deleted.`}
          />
        </div>
      );
    }
    return (
      <div className="p-6">
        <ErrorPanel error={query.error} title="Could not read the secret" onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return (
    <SecretForm
      // A saved change (a new version) starts a fresh draft from what the server now holds.
      key={`${query.data.id}:${query.data.version}`}
      folder={folder}
      secret={query.data}
      onDirtyChange={onDirtyChange}
      onRenamed={onRenamed}
    />
  );
}

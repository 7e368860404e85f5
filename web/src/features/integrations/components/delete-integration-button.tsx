import type { Integration } from "@keyhold/contract";
import { DeleteWithConfirm } from "@/components/permissions/delete-with-confirm";
import { useDeleteIntegration } from "../mutations";

interface DeleteIntegrationButtonProps {
  projectId: string;
  integration: Pick<Integration, "id" | "secretPath" | "environment">;
  /** The app and provider, for the label and the question. */
  name: string;
  deniedReason: string | undefined;
}

export function DeleteIntegrationButton({ projectId, integration, name, deniedReason }: DeleteIntegrationButtonProps) {
  const remove = useDeleteIntegration(projectId);
  return (
    <DeleteWithConfirm
      id={integration.id}
      remove={remove}
      label={`Delete integration ${name}`}
      action="Delete integration"
      description={
        <p>
          <span className="font-medium text-foreground">{name}</span> stops receiving the secrets of{" "}
          <code className="font-mono text-xs text-foreground">
            {integration.environment.slug}:{integration.secretPath}
          </code>
          . Secrets already sent to the provider stay there.
        </p>
      }
      done={{ title: "Integration deleted", detail: name }}
      failure="Could not delete the integration"
      deniedReason={deniedReason}
    />
  );
}

import { Plus } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { useCreateProject } from "../mutations";

/**
 * The form (react-hook-form, the slugifier, Radix Switch) is loaded when the dialog is about to
 * open, not with the list; pointing at or focusing the button starts the download.
 */
const loadForm = () => import("./create-project-form");
const CreateProjectForm = lazy(async () => ({ default: (await loadForm()).CreateProjectForm }));

export function CreateProjectDialog() {
  const [open, setOpen] = useState(false);
  const createProject = useCreateProject();

  function handleOpenChange(next: boolean) {
    if (createProject.isPending) return;
    setOpen(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button variant="primary" size="sm" onPointerEnter={() => void loadForm()} onFocus={() => void loadForm()}>
          <Plus aria-hidden />
          Create project
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Create project</DialogTitle>
          <DialogDescription>
            A project holds secrets per environment. You become its admin; add roles and access afterwards.
          </DialogDescription>
        </DialogHeader>
        <Suspense
          fallback={
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner />
              Loading the form…
            </p>
          }
        >
          <CreateProjectForm
            createProject={createProject}
            onCancel={() => handleOpenChange(false)}
            onCreated={() => setOpen(false)}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}

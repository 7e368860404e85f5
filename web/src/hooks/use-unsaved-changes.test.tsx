import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { Link, Outlet, useNavigate } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { UnsavedChangesGuard } from "@/components/layout/unsaved-changes-guard";
import { Dialog, DialogClose, DialogContent, DialogTitle } from "@/components/ui/dialog";
import { renderRoutes } from "@/testing/render";
import { UnsavedPlace, useConfirmDiscardAll, useUnsavedChanges } from "./use-unsaved-changes";

const at = (pathname: string, search = "") => ({ pathname, search });

describe("UnsavedPlace", () => {
  it("is dirty while any form in it reports unsaved input", () => {
    const place = new UnsavedPlace(() => undefined);
    place.report("a", false);
    expect(place.isDirty()).toBe(false);
    place.report("a", true);
    place.report("b", false);
    expect(place.isDirty()).toBe(true);
    place.forget("a");
    expect(place.isDirty()).toBe(false);
  });

  it("holds a page's form when the path changes, not when only the query does", () => {
    const place = new UnsavedPlace(() => undefined);
    place.report("form", true);
    expect(place.blocks(at("/a"), at("/b"))).toBe(true);
    expect(place.blocks(at("/a"), at("/a", "?tab=2"))).toBe(false);
    place.report("form", false);
    expect(place.blocks(at("/a"), at("/b"))).toBe(false);
  });

  it("holds a dialog's form on any change of address, until the dialog is released", () => {
    const console = new UnsavedPlace(() => undefined);
    const dialog = new UnsavedPlace(() => undefined, { place: console, id: "dialog" });
    dialog.report("form", true);
    expect(console.isDirty()).toBe(true);
    expect(console.blocks(at("/s", "?secret=A"), at("/s"))).toBe(true);

    dialog.release();
    expect(dialog.isDirty()).toBe(false);
    expect(console.blocks(at("/s", "?secret=A"), at("/s"))).toBe(false);
    dialog.resume();
    expect(console.isDirty()).toBe(true);

    dialog.detach();
    expect(console.isDirty()).toBe(false);
  });
});

function NameForm({ onCancel }: { onCancel?: () => void }) {
  const [name, setName] = useState("");
  const confirmDiscard = useUnsavedChanges(name !== "");
  return (
    <>
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      {onCancel ? (
        <button type="button" onClick={() => confirmDiscard(onCancel)}>
          Cancel
        </button>
      ) : null}
    </>
  );
}

function GuardedDialog({ onOpenChange, owner = false }: { onOpenChange: (open: boolean) => void; owner?: boolean }) {
  const [open, setOpen] = useState(true);
  const [note, setNote] = useState("");
  const change = (next: boolean) => {
    onOpenChange(next);
    setOpen(next);
  };
  return (
    <Dialog open={open} onOpenChange={change} dirty={owner && note !== ""}>
      <DialogContent aria-describedby={undefined}>
        <DialogTitle>Edit</DialogTitle>
        {owner ? (
          <label>
            Note
            <input value={note} onChange={(event) => setNote(event.target.value)} />
          </label>
        ) : (
          <NameForm onCancel={() => change(false)} />
        )}
        <DialogClose>Dismiss</DialogClose>
      </DialogContent>
    </Dialog>
  );
}

function renderDialog(owner = false) {
  const onOpenChange = vi.fn();
  render(<GuardedDialog onOpenChange={onOpenChange} owner={owner} />);
  const dialog = screen.getByRole("dialog", { name: "Edit" });
  return { onOpenChange, dialog, user: userEvent.setup() };
}

const question = () => screen.queryByRole("alertdialog", { name: "Discard unsaved changes?" });

describe("Dialog", () => {
  it("closes at once on Escape when nothing was typed", async () => {
    const { onOpenChange, user } = renderDialog();
    await user.keyboard("{Escape}");
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(question()).toBeNull();
  });

  it("asks on Escape with unsaved input; Cancel keeps it, Discard closes", async () => {
    const { onOpenChange, dialog, user } = renderDialog();
    await user.type(within(dialog).getByLabelText("Name"), "draft");
    await user.keyboard("{Escape}");
    const ask = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
    expect(ask).toHaveTextContent("Your changes have not been saved. Closing discards them.");
    await user.click(within(ask).getByRole("button", { name: "Cancel" }));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText("Name")).toHaveValue("draft");

    await user.keyboard("{Escape}");
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard changes" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Edit" })).toBeNull());
  });

  it.each([
    ["the Close button", "Close"],
    ["a DialogClose", "Dismiss"],
    ["the form's own Cancel", "Cancel"],
  ])("asks on %s", async (_, button) => {
    const { onOpenChange, dialog, user } = renderDialog();
    await user.type(within(dialog).getByLabelText("Name"), "draft");
    await user.click(within(dialog).getByRole("button", { name: button }));
    expect(await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" })).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("asks on a click outside", async () => {
    const { onOpenChange, dialog, user } = renderDialog();
    await user.type(within(dialog).getByLabelText("Name"), "draft");
    await user.click(document.querySelector("[data-slot=dialog-overlay]") as Element);
    expect(await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" })).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("guards input its owner holds (the dirty property)", async () => {
    const { onOpenChange, dialog, user } = renderDialog(true);
    await user.type(within(dialog).getByLabelText("Note"), "x");
    await user.keyboard("{Escape}");
    expect(await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" })).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});

function FormPage() {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [dialog, setDialog] = useState(false);
  useUnsavedChanges(name !== "");
  return (
    <>
      <h1>Form</h1>
      <label>
        Page name
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <Link to="/other">Other page</Link>
      <Link to="?tab=2">Second tab</Link>
      <button
        type="button"
        onClick={() => {
          // A save that moves on: the form is clean once it renders, so the move is not asked about.
          setName("");
          navigate("/other");
        }}
      >
        Save and go
      </button>
      <button type="button" onClick={() => setDialog(true)}>
        Open dialog
      </button>
      <Dialog open={dialog} onOpenChange={setDialog}>
        <DialogContent aria-describedby={undefined}>
          <DialogTitle>Edit</DialogTitle>
          <NameForm />
        </DialogContent>
      </Dialog>
    </>
  );
}

function renderPages() {
  return renderRoutes(
    [
      {
        element: (
          <UnsavedChangesGuard>
            <Outlet />
          </UnsavedChangesGuard>
        ),
        children: [
          { path: "/form", element: <FormPage /> },
          { path: "/other", element: <h1>Other</h1> },
        ],
      },
    ],
    { path: "/form" },
  );
}

describe("UnsavedChangesGuard", () => {
  it("leaves a pristine page at once", async () => {
    const { user } = renderPages();
    await user.click(screen.getByRole("link", { name: "Other page" }));
    expect(await screen.findByRole("heading", { name: "Other" })).toBeInTheDocument();
  });

  it("asks before leaving a page with unsaved input; Cancel stays, Discard leaves", async () => {
    const { user, router } = renderPages();
    await user.type(screen.getByLabelText("Page name"), "draft");
    await user.click(screen.getByRole("link", { name: "Other page" }));
    const ask = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
    expect(ask).toHaveTextContent("Leaving this page discards them.");
    await user.click(within(ask).getByRole("button", { name: "Cancel" }));
    expect(router.state.location.pathname).toBe("/form");
    expect(screen.getByLabelText("Page name")).toHaveValue("draft");

    await user.click(screen.getByRole("link", { name: "Other page" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard changes" }));
    expect(await screen.findByRole("heading", { name: "Other" })).toBeInTheDocument();
  });

  it("lets a page's query change without asking", async () => {
    const { user, router } = renderPages();
    await user.type(screen.getByLabelText("Page name"), "draft");
    await user.click(screen.getByRole("link", { name: "Second tab" }));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=2"));
    expect(question()).toBeNull();
  });

  it("asks about any change of address while a dialog holds unsaved input", async () => {
    const { user, router } = renderPages();
    await user.click(screen.getByRole("button", { name: "Open dialog" }));
    await user.type(within(screen.getByRole("dialog", { name: "Edit" })).getByLabelText("Name"), "draft");
    void router.navigate("?tab=2");
    expect(await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
  });

  it("goes ahead with a move started by a save that leaves the form clean", async () => {
    const { user } = renderPages();
    await user.type(screen.getByLabelText("Page name"), "draft");
    await user.click(screen.getByRole("button", { name: "Save and go" }));
    expect(await screen.findByRole("heading", { name: "Other" })).toBeInTheDocument();
    expect(question()).toBeNull();
  });

  it("makes the browser ask before a reload only while input is unsaved", async () => {
    const { user } = renderPages();
    const reload = () => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(reload()).toBe(false);
    await user.type(screen.getByLabelText("Page name"), "draft");
    expect(reload()).toBe(true);
    await user.clear(screen.getByLabelText("Page name"));
    expect(reload()).toBe(false);
  });

  it("asks before a form's own way out discards its input", async () => {
    const onCancel = vi.fn();
    const { user } = renderRoutes(
      [
        {
          path: "/",
          element: (
            <UnsavedChangesGuard>
              <NameForm onCancel={onCancel} />
            </UnsavedChangesGuard>
          ),
        },
      ],
      { path: "/" },
    );
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledOnce();
    await user.type(screen.getByLabelText("Name"), "draft");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    const ask = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
    await user.click(within(ask).getByRole("button", { name: "Discard changes" }));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it("asks before a way out of the whole console (signing out) discards any form's input", async () => {
    const signOut = vi.fn();
    function SignOut() {
      const confirmDiscard = useConfirmDiscardAll();
      return (
        <button type="button" onClick={() => confirmDiscard(signOut)}>
          Sign out
        </button>
      );
    }
    const { user } = renderRoutes(
      [
        {
          path: "/",
          element: (
            <UnsavedChangesGuard>
              <SignOut />
              <NameForm />
            </UnsavedChangesGuard>
          ),
        },
      ],
      { path: "/" },
    );
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    expect(signOut).toHaveBeenCalledOnce();
    await user.type(screen.getByLabelText("Name"), "draft");
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    const ask = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
    await user.click(within(ask).getByRole("button", { name: "Cancel" }));
    expect(signOut).toHaveBeenCalledOnce();
    expect(screen.getByLabelText("Name")).toHaveValue("draft");
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard changes" }));
    expect(signOut).toHaveBeenCalledTimes(2);
  });
});

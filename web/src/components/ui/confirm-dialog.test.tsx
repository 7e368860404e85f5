import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ConfirmDialog } from "./confirm-dialog";
import type { Counting } from "./confirm-removal";

function renderDialog(counting: Counting, always = false) {
  const onConfirm = vi.fn();
  render(
    <ConfirmDialog
      open
      onOpenChange={() => undefined}
      title="Delete environment"
      description="This permanently deletes Production."
      confirmLabel="Delete environment"
      onConfirm={onConfirm}
      removes={{ name: "prod", counting, sentence: (counts) => `${counts} in prod go with it.`, always }}
    />,
  );
  return { onConfirm, user: userEvent.setup(), confirm: screen.getByRole("button", { name: "Delete environment" }) };
}

const counted = (secrets: number, folders: number): Counting => ({
  status: "success",
  data: [
    { count: secrets, one: "secret", many: "secrets" },
    { count: folders, one: "folder", many: "folders" },
  ],
});

describe("ConfirmDialog removes", () => {
  it("names what goes with it and asks for the name before confirming", async () => {
    const { onConfirm, user, confirm } = renderDialog(counted(42, 3));
    expect(screen.getByText("42 secrets and 3 folders in prod go with it.")).toBeInTheDocument();
    expect(confirm).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Type prod to confirm" }), "pro");
    expect(confirm).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Type prod to confirm" }), "d");
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("confirms plainly when nothing goes with it", async () => {
    const { onConfirm, user, confirm } = renderDialog(counted(0, 0));
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.queryByText(/go with it/)).not.toBeInTheDocument();
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("cannot be confirmed while counting, and says it is counting", () => {
    const { confirm } = renderDialog({ status: "pending" });
    expect(screen.getByRole("status")).toHaveTextContent("Counting what goes with it…");
    expect(confirm).toBeDisabled();
  });

  it("asks for the name and says so when the contents could not be counted", async () => {
    const { onConfirm, user, confirm } = renderDialog({ status: "error", error: new Error("Network down") });
    expect(screen.getByRole("status")).toHaveTextContent("What goes with it could not be counted");
    expect(confirm).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "Type prod to confirm" }), "prod");
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("always asks for the name of what always takes others with it", () => {
    const { confirm } = renderDialog(counted(0, 0), true);
    expect(screen.getByRole("textbox", { name: "Type prod to confirm" })).toBeInTheDocument();
    expect(confirm).toBeDisabled();
  });
});

import { render, screen } from "@testing-library/react";
import { expect, it } from "vitest";
import { AfterFirstPaint } from "./after-first-paint";

it("shows the fallback first and mounts the children after the next frame", async () => {
  render(
    <AfterFirstPaint fallback={<p>placeholder</p>}>
      <p>content</p>
    </AfterFirstPaint>,
  );
  expect(screen.getByText("placeholder")).toBeInTheDocument();
  expect(screen.queryByText("content")).toBeNull();
  expect(await screen.findByText("content")).toBeInTheDocument();
  expect(screen.queryByText("placeholder")).toBeNull();
});

import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import indexHtml from "../../../index.html?raw";
import { AppLoading } from "./app-loading";

it("is what index.html shows before the app has started, so the hand-over does not flash", () => {
  const root = /<div id="root">(.*)<\/div>/.exec(indexHtml)?.[1];
  expect(root).toBe(renderToStaticMarkup(<AppLoading />));
});

import "./fonts.css";
import "./index.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createApp } from "./app/create-app";
import { AppProvider } from "./app/provider";

const root = document.getElementById("root");
if (!root) throw new Error("index.html must contain #root");

const { queryClient, router } = createApp();

createRoot(root).render(
  <StrictMode>
    <AppProvider queryClient={queryClient} router={router} />
  </StrictMode>,
);

import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { listeningPid, localPort, treeCpuSeconds } from "./cpu.ts";

/** Burns `ms` of its own CPU time, however busy the machine is. */
const burn = (ms: number) => `while (process.cpuUsage().user < ${ms * 1000}) {}`;

describe("treeCpuSeconds", () => {
  it("counts a process's own CPU time and that of a child it ran and reaped", async () => {
    const script = `${burn(200)}; require("node:child_process").execFileSync(process.execPath, ["-e", ${JSON.stringify(burn(1000))}]); console.log("done"); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await once(child.stdout, "data");
      const seconds = treeCpuSeconds(child.pid as number);
      // The reaped child's second is in it: the process alone burns 0.2 s and starts (no upper
      // bound: on a busy machine starting Node alone has taken seconds of CPU).
      expect(seconds).toBeGreaterThanOrEqual(1.2);
    } finally {
      child.kill();
    }
  });
});

describe("listeningPid", () => {
  it("finds the process listening on a loopback port", async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      expect(listeningPid(port)).toBe(process.pid);
      expect(localPort(`http://127.0.0.1:${port}/api/status`)).toBe(port);
    } finally {
      server.close();
    }
  });

  it("leaves out a server on another machine", () => {
    expect(localPort("postgres://postgres@db.example.com:5432/postgres")).toBeUndefined();
  });
});

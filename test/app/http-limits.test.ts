/** What GitHub never sends is turned away before any signature work or GitHub call. */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppHarness, type AppHarness } from "./harness.ts";

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness({
    server: { maxBodyBytes: 4096, requestTimeoutMs: 300, headersTimeoutMs: 300, timeoutCheckMs: 50 },
  });
});
afterAll(async () => {
  await h.close();
});

/** Sends raw bytes and resolves with the status line the server answers, or "closed". */
function raw(request: string, { stall }: { stall: boolean }): Promise<string> {
  const url = new URL(h.webhookUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(request);
      if (!stall) socket.end();
    });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("close", () => resolve(answer.split("\r\n")[0] || "closed"));
  });
}

describe("webhook endpoint limits", () => {
  it("answers 413 to a body over the cap without reading it or calling GitHub", async () => {
    const before = h.sim.requestLog.length;
    const response = await fetch(h.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "issues", "x-github-delivery": "big" },
      body: JSON.stringify({ padding: "x".repeat(10_000) }),
    });
    expect(response.status).toBe(413);
    expect(h.sim.requestLog.length).toBe(before);
  });

  it("answers 411 when no length is given", async () => {
    const status = await raw(
      "POST /api/github/webhooks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
      { stall: false },
    );
    expect(status).toBe("HTTP/1.1 411 Length Required");
  });

  it("cuts off a sender that never finishes its body", async () => {
    const status = await raw(
      "POST /api/github/webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n" +
        "X-GitHub-Event: issues\r\nX-GitHub-Delivery: slow\r\nX-Hub-Signature-256: sha256=00\r\n\r\n{",
      { stall: true },
    );
    expect(status).toBe("HTTP/1.1 408 Request Timeout");
  });

  it("answers health checks", async () => {
    const response = await fetch(new URL("/ping", h.webhookUrl));
    expect(await response.text()).toBe("PONG");
  });
});

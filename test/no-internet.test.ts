/** The guard test/setup.ts installs: no test reaches the Internet, loopback stays open, nothing crashes. */
import { get } from "node:http";
import { connect as tlsConnect } from "node:tls";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { describe, expect, it } from "vitest";

function failure(socket: Socket): Promise<Error> {
  return new Promise((resolve, reject) => {
    socket.once("connect", () => reject(new Error("connected")));
    socket.once("error", resolve);
  });
}

describe("a test's connection", () => {
  it("to a host on the Internet fails as an unknown host would, naming the host", async () => {
    const plain = await failure(connect(443, "api.github.com"));
    expect(plain.message).toBe("tests do not reach the Internet (api.github.com:443)");
    expect((plain as NodeJS.ErrnoException).code).toBe("ENOTFOUND");
    // An address rather than a name, and TLS, which sets up its socket before connecting.
    expect((await failure(connect({ host: "140.82.112.3", port: 80 }))).message).toMatch(
      /140\.82\.112\.3:80/,
    );
    const tls = await failure(tlsConnect({ host: "github.com", port: 443, servername: "github.com" }));
    expect(tls.message).toBe("tests do not reach the Internet (github.com:443)");
    // Node's http client and fetch both end there too.
    const http = await new Promise<Error>((resolve) =>
      get("http://example.com/", () => undefined).once("error", resolve),
    );
    expect(http.message).toMatch(/example\.com:80/);
    const fetched = await fetch("https://api.github.com/zen").catch((error: unknown) => error as Error);
    expect(String((fetched as Error & { cause?: Error }).cause?.message)).toMatch(/api\.github\.com:443/);
  });

  it("to loopback goes through, by address or by name", async () => {
    const server = createServer((socket) => socket.end("hello"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        const text = await new Promise<string>((resolve, reject) => {
          let data = "";
          const socket = connect(port, host);
          socket.on("data", (chunk: Buffer) => (data += chunk.toString()));
          socket.once("end", () => resolve(data));
          socket.once("error", reject);
        });
        expect(text).toBe("hello");
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

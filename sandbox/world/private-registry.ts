/**
 * A stand-in private npm registry on the runner's loopback (an ephemeral port): it serves one
 * package, its metadata and its tarball, only to requests that carry the right token, and
 * records the `Authorization` header of every request it saw, so a test can tell which requests
 * got the credential. Plain HTTP: it stands for a registry the egress proxy reaches over HTTPS.
 */
import { createServer, type Server } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export interface PrivateRegistry {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** The `Authorization` header of each request, in order (undefined when none was sent). */
  readonly seen: (string | undefined)[];
  close(): Promise<void>;
}

export interface PrivateRegistryOptions {
  /** The header value a request must carry, e.g. `Bearer <token>`. */
  readonly authorization: string;
  /** The one package it serves (`@scope/name` or `name`), version 1.0.0. */
  readonly packageName: string;
  /** Its `index.js`. */
  readonly main: string;
}

export async function startPrivateRegistry(options: PrivateRegistryOptions): Promise<PrivateRegistry> {
  const seen: (string | undefined)[] = [];
  const tarball = packageTarball(options.packageName, options.main);
  const baseName = options.packageName.split("/").at(-1) ?? options.packageName;
  const tarballPath = `/${options.packageName}/-/${baseName}-1.0.0.tgz`;
  let origin = "";
  const server: Server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    if (req.headers.authorization !== options.authorization) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://registry").pathname);
    if (path === `/${options.packageName}`) {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          name: options.packageName,
          "dist-tags": { latest: "1.0.0" },
          versions: {
            "1.0.0": {
              name: options.packageName,
              version: "1.0.0",
              main: "index.js",
              dist: {
                tarball: `${origin}${tarballPath}`,
                shasum: createHash("sha1").update(tarball).digest("hex"),
                integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
              },
            },
          },
        }),
      );
      return;
    }
    if (path === tarballPath) {
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(tarball);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An npm package tarball: `package/package.json` and `package/index.js` in a gzipped ustar archive. */
function packageTarball(name: string, main: string): Buffer {
  const files: [string, string][] = [
    ["package/package.json", JSON.stringify({ name, version: "1.0.0", main: "index.js" })],
    ["package/index.js", main],
  ];
  const blocks = files.flatMap(([path, text]) => {
    const body = Buffer.from(text);
    const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
    body.copy(padded);
    return [tarHeader(path, body.length), padded];
  });
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

function tarHeader(path: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(path, 0, 100, "utf8");
  header.write("0000644\0", 100, "ascii");
  header.write("0000000\0", 108, "ascii");
  header.write("0000000\0", 116, "ascii");
  header.write(`${size.toString(8).padStart(11, "0")}\0`, 124, "ascii");
  header.write("00000000000\0", 136, "ascii");
  header.write("        ", 148, "ascii");
  header.write("0", 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return header;
}

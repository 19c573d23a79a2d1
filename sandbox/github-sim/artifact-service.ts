/**
 * The Actions artifact service, as `@actions/artifact` (v2 and later) talks to it: Twirp JSON calls
 * on `ACTIONS_RESULTS_URL` (`CreateArtifact` answers a signed upload URL, `FinalizeArtifact` the
 * artifact's id), with the blob itself uploaded Azure-style in between (Put Block, then Put Block
 * List). The simulator keeps every finalized artifact so tests can read it, and serves it at the
 * page a run's artifact has on GitHub (`<run url>/artifacts/<id>`), so a link to it resolves.
 * https://docs.github.com/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/downloading-workflow-artifacts
 *
 * The runtime token is a JWT whose `scp` claim carries `Actions.Results:<run>:<job>`; the client
 * only decodes it, and so does the simulator (`runtimeToken` mints one for a run).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const TWIRP = "/twirp/github.actions.results.api.v1.ArtifactService/";
const BLOBS = "/artifact-blobs/";

export interface StoredArtifact {
  readonly id: number;
  /** The run's id as the runtime token names it (the workflow run backend id). */
  readonly runId: string;
  readonly name: string;
  readonly content: Buffer;
}

export interface ArtifactService {
  /** Answers the request if it is the artifact service's; false leaves it to the next handler. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Finalized artifacts, oldest first. */
  list(): readonly StoredArtifact[];
  /** While set, `CreateArtifact` is refused with this message (a test of a failed upload). */
  refuse(message: string | undefined): void;
}

/** An unsigned runtime token for `runId` (the artifact client reads its `scp` claim only). */
export function runtimeToken(runId: string): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ scp: `Actions.Results:${runId}:job-${runId}` })}.sig`;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The Put Block List body's block ids, in order (`<Latest>`, `<Committed>` or `<Uncommitted>`). */
function blockIds(xml: string): string[] {
  return [...xml.matchAll(/<(?:Latest|Committed|Uncommitted)>([^<]*)<\/\w+>/g)].map(
    (match) => match[1] ?? "",
  );
}

export function createArtifactService(webUrl: () => string): ArtifactService {
  const artifacts: StoredArtifact[] = [];
  // Uploads under way, by blob path: their run, name, staged blocks and committed content.
  const pending = new Map<
    string,
    { runId: string; name: string; blocks: Map<string, Buffer>; content?: Buffer }
  >();
  let refusal: string | undefined;
  let nextId = 7001;

  function twirp(method: string, body: Record<string, unknown>, res: ServerResponse): void {
    // The client sends the protobuf field names (snake_case), as Twirp's JSON does.
    const runId = text(body["workflow_run_backend_id"]);
    const name = text(body["name"]);
    const key = `${encodeURIComponent(runId)}/${encodeURIComponent(name)}`;
    if (method === "CreateArtifact") {
      if (refusal !== undefined) return json(res, 403, { code: "permission_denied", msg: refusal });
      pending.set(key, { runId, name, blocks: new Map() });
      return json(res, 200, { ok: true, signed_upload_url: `${webUrl()}${BLOBS}${key}?sig=simulated` });
    }
    if (method === "FinalizeArtifact") {
      const upload = pending.get(key);
      if (!upload?.content) return json(res, 404, { code: "not_found", msg: `no upload of ${name}` });
      pending.delete(key);
      const id = nextId++;
      artifacts.push({ id, runId, name, content: upload.content });
      return json(res, 200, { ok: true, artifact_id: String(id) });
    }
    json(res, 404, { code: "bad_route", msg: `no method ${method}` });
  }

  async function blob(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    const upload = pending.get(url.pathname.slice(BLOBS.length));
    if (!upload || req.method !== "PUT") return json(res, 404, { message: "BlobNotFound" });
    const body = await readBody(req);
    const comp = url.searchParams.get("comp");
    if (comp === "block") upload.blocks.set(url.searchParams.get("blockid") ?? "", body);
    else if (comp === "blocklist")
      upload.content = Buffer.concat(
        blockIds(body.toString("utf8")).map((id) => upload.blocks.get(id) ?? Buffer.alloc(0)),
      );
    else upload.content = body;
    res.writeHead(201, { etag: `"${Date.now()}"`, "x-ms-request-server-encrypted": "true" });
    res.end();
  }

  function download(url: URL, res: ServerResponse): boolean {
    const match = /^\/[^/]+\/[^/]+\/actions\/runs\/([^/]+)\/artifacts\/(\d+)$/.exec(url.pathname);
    const artifact = match && artifacts.find((a) => String(a.id) === match[2] && a.runId === match[1]);
    if (!artifact) return false;
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${artifact.name}"`,
    });
    res.end(artifact.content);
    return true;
  }

  return {
    handle(req, res) {
      const url = new URL(req.url ?? "/", webUrl());
      const reply = (work: Promise<void>): true => {
        work.catch((error: unknown) =>
          json(res, 500, { msg: error instanceof Error ? error.message : String(error) }),
        );
        return true;
      };
      if (req.method === "POST" && url.pathname.startsWith(TWIRP)) {
        const method = url.pathname.slice(TWIRP.length);
        return reply(
          readBody(req).then((raw) =>
            twirp(method, JSON.parse(raw.toString("utf8") || "{}") as Record<string, unknown>, res),
          ),
        );
      }
      if (url.pathname.startsWith(BLOBS)) return reply(blob(req, url, res));
      return req.method === "GET" && download(url, res);
    },
    list: () => artifacts,
    refuse(message) {
      refusal = message;
    },
  };
}

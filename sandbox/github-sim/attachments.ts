/**
 * Files attached to issues and comments, as GitHub serves them
 * (https://docs.github.com/en/get-started/writing-on-github/working-with-advanced-formatting/attaching-files):
 * `GET <server>/user-attachments/assets/<id>` answers a private repository's attachment only to
 * someone who can read the repository (a token covering it, here) and 404 to everyone else, as
 * GitHub hides what a stranger may not see; a public repository's attachment is anyone's. The
 * answer is a redirect to a signed, short-lived URL of the file, which needs no token: the
 * simulator keeps GitHub's two steps, so a client must follow the redirect itself.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Store } from "./model.ts";
import { findRepo, permissionOf } from "./store.ts";
import { tokenExpired } from "./app-auth.ts";
import { tokenCoversRepo } from "./workflow-token.ts";

interface Attachment {
  readonly owner: string;
  readonly repo: string;
  readonly bytes: Buffer;
  readonly contentType: string;
  /** The signed URL's `jwt`: GitHub's is a short-lived JSON Web Token; any secret serves here. */
  readonly signature: string;
}

const PATH = /^\/user-attachments\/assets\/([0-9a-f-]{36})$/;
const byStore = new WeakMap<Store, Map<string, Attachment>>();

function attachmentsOf(store: Store): Map<string, Attachment> {
  let map = byStore.get(store);
  if (map === undefined) {
    map = new Map();
    byStore.set(store, map);
  }
  return map;
}

/** Stores a file as if someone dropped it into an issue of `fullName`; answers the URL GitHub would write. */
export function attachFile(
  store: Store,
  webUrl: string,
  fullName: string,
  bytes: Uint8Array,
  contentType = "image/png",
): string {
  const [owner = "", repo = ""] = fullName.split("/");
  if (!findRepo(store, owner, repo)) throw new Error(`attach: no repository ${fullName}`);
  const id = randomUUID();
  attachmentsOf(store).set(id, {
    owner,
    repo,
    bytes: Buffer.from(bytes),
    contentType,
    signature: randomBytes(16).toString("hex"),
  });
  return `${webUrl}/user-attachments/assets/${id}`;
}

export function isAttachmentRequest(path: string): boolean {
  return PATH.test(path);
}

function tokenOf(req: IncomingMessage): string | undefined {
  const [scheme = "", value = ""] = (req.headers.authorization ?? "").trim().split(/\s+/, 2);
  return /^(token|bearer)$/i.test(scheme) && value !== "" ? value : undefined;
}

/** Whether the request's token may read the attachment's repository. */
function mayRead(store: Store, attachment: Attachment, token: string | undefined): boolean {
  const repo = findRepo(store, attachment.owner, attachment.repo);
  if (!repo) return false;
  if (!repo.isPrivate) return true;
  const record = token === undefined ? undefined : store.tokens.get(token);
  if (!record || tokenExpired(store, record)) return false;
  if (!tokenCoversRepo(record, attachment.owner, attachment.repo)) return false;
  return permissionOf(store, repo, record.login) !== "none";
}

/** Answers an attachment request; the status it answered, for the request log. */
export function handleAttachmentRequest(
  store: Store,
  webUrl: string,
  req: IncomingMessage,
  res: ServerResponse,
): number {
  const url = new URL(req.url ?? "/", webUrl);
  const id = PATH.exec(url.pathname)?.[1] ?? "";
  const attachment = attachmentsOf(store).get(id);
  const answer = (status: number, headers: Record<string, string>, body: Buffer | string = ""): number => {
    res.writeHead(status, headers);
    res.end(body);
    return status;
  };
  if (req.method !== "GET" || attachment === undefined)
    return answer(404, { "content-type": "text/plain" }, "Not Found");
  const signed = url.searchParams.get("jwt");
  if (signed !== null) {
    if (signed !== attachment.signature) return answer(404, { "content-type": "text/plain" }, "Not Found");
    return answer(
      200,
      { "content-type": attachment.contentType, "content-length": String(attachment.bytes.length) },
      attachment.bytes,
    );
  }
  if (!mayRead(store, attachment, tokenOf(req)))
    return answer(404, { "content-type": "text/plain" }, "Not Found");
  return answer(302, { location: `${webUrl}/user-attachments/assets/${id}?jwt=${attachment.signature}` });
}

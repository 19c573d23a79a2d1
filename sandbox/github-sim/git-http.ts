/**
 * Git over smart HTTP (`/{owner}/{repo}.git/…`, through `git http-backend`),
 * authenticated the way GitHub authenticates it: Basic auth with the token as
 * password (`x-access-token:<token>`, what actions/checkout sends). A push
 * needs `contents: write`, and a push whose new commits touch
 * `.github/workflows/` needs `workflows`, which no Locus token has: GitHub
 * refuses it whole, in a pre-receive check.
 * https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/authenticating-as-a-github-app-installation#about-authentication-as-a-github-app-installation
 * https://docs.github.com/rest/authentication/permissions-required-for-github-apps
 */
import { execFile } from "node:child_process";
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { spawnerRun } from "../spawner/spawner.ts";
import { readBranchTips } from "./git-cache.ts";
import type { Store, TokenRecord } from "./model.ts";
import { findRepo, hasPermission, permissionOf } from "./store.ts";
import { tokenExpired } from "./app-auth.ts";
import { tokenCoversRepo } from "./workflow-token.ts";
import { recordWorkflowTokenPush } from "./workflow-token-rules.ts";
import { pushRuleEnv, RULES_CHECK } from "./git-rules.ts";

const NO_RULES = { env: {}, done: () => Promise.resolve() };

let execPath: Promise<string> | undefined;
/** Where git keeps its programs (`git --exec-path`), asked once. */
function gitExecPath(): Promise<string> {
  return (execPath ??= promisify(execFile)("git", ["--exec-path"]).then(({ stdout }) => stdout.trim()));
}

/** `git -c name=value` as environment variables (GIT_CONFIG_COUNT, git 2.31 and later). */
function gitConfigEnv(config: Record<string, string>): Record<string, string> {
  const entries = Object.entries(config);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

const GIT_PATH = /^\/([^/]+)\/([^/]+?)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;

// Runs in the repository during a push: the rules (git-rules.ts), then the workflow-file check.
const PRE_RECEIVE = `#!/bin/sh
input=$(cat)
hooks=$(dirname "$0")
printf '%s\\n' "$input" | sh "$hooks/rules-check" || exit 1
printf '%s\\n' "$input" | sh "$hooks/workflows-check" || exit 1
exit 0
`;

// Refuses commits that touch workflow files unless the token may write them.
const WORKFLOWS_CHECK = `#!/bin/sh
[ "$SIM_GIT_WORKFLOWS" = "write" ] && exit 0
zero=0000000000000000000000000000000000000000
while read old new ref; do
  [ "$new" = "$zero" ] && continue
  if [ "$old" = "$zero" ]; then commits=$(git rev-list "$new" --not --all); else commits=$(git rev-list "$old..$new"); fi
  for commit in $commits; do
    path=$(git diff-tree --root --no-commit-id --name-only -r "$commit" | grep '^\\.github/workflows/' | head -n 1)
    if [ -n "$path" ]; then
      echo "refusing to allow a GitHub App to create or update workflow \\\`$path\\\` without \\\`workflows\\\` permission" >&2
      exit 1
    fi
  done
done
exit 0
`;

let hooksDir: Promise<string> | undefined;

function preReceiveHooks(): Promise<string> {
  hooksDir ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "github-sim-hooks-"));
    await writeFile(join(dir, "pre-receive"), PRE_RECEIVE);
    await writeFile(join(dir, "rules-check"), RULES_CHECK);
    await writeFile(join(dir, "workflows-check"), WORKFLOWS_CHECK);
    await chmod(join(dir, "pre-receive"), 0o755);
    return dir;
  })();
  return hooksDir;
}

export function isGitRequest(path: string): boolean {
  return GIT_PATH.test(path);
}

interface GitAccess {
  readonly token: TokenRecord;
  readonly login: string;
  readonly push: boolean;
  readonly workflows: boolean;
}

function basicToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization ?? "";
  const [scheme = "", value = ""] = header.trim().split(/\s+/, 2);
  if (scheme.toLowerCase() !== "basic") return undefined;
  const decoded = Buffer.from(value, "base64").toString("utf8");
  return decoded.slice(decoded.indexOf(":") + 1);
}

function access(
  store: Store,
  owner: string,
  name: string,
  token: string | undefined,
): GitAccess | "unauthorized" | "not-found" {
  const repo = findRepo(store, owner, name);
  if (!repo) return "not-found";
  const record = token === undefined ? undefined : store.tokens.get(token);
  if (!record || tokenExpired(store, record)) return "unauthorized";
  if (!tokenCoversRepo(record, owner, name)) return "not-found";
  const role = permissionOf(store, repo, record.login);
  if (role === "none") return "not-found";
  const contents = record.permissions === null ? "write" : record.permissions["contents"];
  return {
    token: record,
    login: record.login,
    push: hasPermission(role, "write") && contents === "write",
    // A person's token is not limited by app permissions here; an installation token needs `workflows`.
    workflows: record.permissions === null || record.permissions["workflows"] === "write",
  };
}

function answer(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(text);
}

export async function handleGitRequest(
  store: Store,
  webUrl: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sim");
  const [, owner = "", name = "", action = ""] = GIT_PATH.exec(url.pathname) ?? [];
  const service = action === "info/refs" ? (url.searchParams.get("service") ?? "") : action;
  const granted = access(store, owner, name, basicToken(req));
  if (granted === "not-found") return answer(res, 404, "Repository not found.\n");
  if (granted === "unauthorized")
    return answer(res, 401, "Invalid username or token.\n", { "www-authenticate": 'Basic realm="GitHub"' });
  if (service === "git-receive-pack" && !granted.push)
    return answer(res, 403, `Permission to ${owner}/${name}.git denied to ${granted.login}.\n`);
  const repo = findRepo(store, owner, name);
  if (!repo) return answer(res, 404, "Repository not found.\n");
  const hooks = await preReceiveHooks();
  const before = service === "git-receive-pack" ? await readBranchTips(repo.gitDir) : undefined;
  // Only a push runs the pre-receive checks, which need the rules.
  const rules = before === undefined ? NO_RULES : await pushRuleEnv(repo, webUrl, hooks);
  // git-http-backend itself, not through `git http-backend` (one process fewer per request), with its
  // config in the environment: the sim's hooks, pushes allowed, no `gc --auto` after each push. Started
  // by the spawner's small process (sandbox/spawner/spawner.ts) with the whole request, whose answer is
  // relayed once it is complete: the packs of a simulated repository are small.
  const body = await requestBody(req);
  const run = await spawnerRun({
    file: join(await gitExecPath(), "git-http-backend"),
    args: [],
    input: body,
    env: {
      PATH: process.env["PATH"] ?? "",
      ...gitConfigEnv({ "core.hooksPath": hooks, "http.receivepack": "true", "receive.autogc": "false" }),
      GIT_PROJECT_ROOT: dirname(repo.gitDir),
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: `/${basename(repo.gitDir)}/${action}`,
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
      ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
      REMOTE_USER: granted.login,
      SIM_GIT_WORKFLOWS: granted.workflows ? "write" : "none",
      ...rules.env,
    },
  });
  // Recorded before the answer ends: once the pusher hears back, anything that looks sees who pushed.
  await relayCgi(Readable.from([run.stdout]), res, async () => {
    await rules.done();
    if (before === undefined) return;
    // What the push moved branches to, so a job token's push starts no workflow (workflow-token-rules.ts).
    const after = await readBranchTips(repo.gitDir);
    const moved = [...after].filter(([ref, sha]) => before.get(ref) !== sha).map(([, sha]) => sha);
    recordWorkflowTokenPush(repo, granted.token, moved);
  });
}

async function requestBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Turns the CGI answer (headers, a blank line, the body) into the HTTP response, ending it after `beforeEnd`. */
function relayCgi(
  output: NodeJS.ReadableStream,
  res: ServerResponse,
  beforeEnd: () => Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    let started = false;
    output.on("data", (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const key = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (key === "status") status = Number.parseInt(value, 10) || 200;
        else if (key) headers[key] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
      started = true;
    });
    output.on("end", () => {
      if (!started) res.writeHead(500);
      beforeEnd()
        .finally(() => res.end())
        .then(resolve, reject);
    });
  });
}

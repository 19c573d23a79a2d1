/**
 * The ACP agent's `fs/read_text_file` and `fs/write_text_file`, served with the built-in tools'
 * confinement: a path (ACP paths are absolute) must resolve inside the worktree, never in `.git`,
 * never through a symlink that leads out; reads open without following a swapped-in link, writes
 * go through the same atomic, hook-aware change as `write_file`. A refusal is a JSON-RPC error
 * whose message says why, which the agent reads like a tool error.
 */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import type { ToolContext, ToolResult } from "../tool.ts";
import { ConfinementError } from "../tools/confined-files.ts";
import { applyFileChange } from "../tools/file-change.ts";
import { resolveWorktreePath } from "../tools/paths.ts";
import { readTextFile } from "../tools/text-files.ts";

/** Larger files are refused rather than pushed whole through the pipe. */
const ACP_READ_MAX_CHARS = 2_000_000;

export class AcpRefusal extends RequestError {
  constructor(message: string) {
    super(-32602, message);
  }
}

/** A worktree-relative path for the agent's (usually absolute) one; outside the worktree is refused. */
async function relativeRequest(cwd: string, requested: string): Promise<string> {
  if (!path.isAbsolute(requested)) return requested;
  for (const root of [cwd, await realpath(cwd)]) {
    const relative = path.relative(root, requested);
    if (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
      return relative || ".";
  }
  throw new AcpRefusal(`${requested} is outside the worktree; only files inside it can be used.`);
}

async function resolve(cwd: string, requested: string) {
  const resolved = await resolveWorktreePath(cwd, await relativeRequest(cwd, requested));
  if (!resolved.ok) throw new AcpRefusal(resolved.error);
  return resolved;
}

export async function readForAgent(
  cwd: string,
  request: { readonly path: string; readonly line?: number | null; readonly limit?: number | null },
): Promise<string> {
  const resolved = await resolve(cwd, request.path);
  let read;
  try {
    read = await readTextFile(resolved.root, resolved.absolute);
  } catch (error) {
    if (error instanceof ConfinementError) throw new AcpRefusal(error.message);
    throw error;
  }
  switch (read.kind) {
    case "missing":
      throw new RequestError(-32002, `There is no file at ${resolved.relative}.`);
    case "directory":
      throw new AcpRefusal(`${resolved.relative} is a directory.`);
    case "binary":
      throw new AcpRefusal(`${resolved.relative} is a binary file (${read.size} bytes).`);
    case "text":
      break;
  }
  let text = read.text;
  if (request.line != null || request.limit != null) {
    const lines = text.split("\n");
    const start = Math.max(1, request.line ?? 1) - 1;
    text = lines.slice(start, request.limit == null ? undefined : start + request.limit).join("\n");
  }
  if (text.length > ACP_READ_MAX_CHARS) {
    throw new AcpRefusal(
      `${resolved.relative} has ${text.length} characters, more than ${ACP_READ_MAX_CHARS}; read it in parts with line and limit.`,
    );
  }
  return text;
}

/** Writes through `applyFileChange` (atomic, confined, edit hooks); the result carries the diff. */
export async function writeForAgent(
  context: ToolContext,
  request: { readonly path: string; readonly content: string },
  readOnly: boolean,
): Promise<ToolResult> {
  if (readOnly) throw new AcpRefusal("This run is read-only: no file may be written.");
  const resolved = await resolve(context.cwd, request.path);
  if (resolved.relative === ".") throw new AcpRefusal("Give a file path, not the worktree root.");
  const result = await applyFileChange(
    {
      root: resolved.root,
      absolute: resolved.absolute,
      relative: resolved.relative,
      verb: "Write",
      transform: () => ({ content: request.content }),
    },
    context,
  );
  if (result.isError) throw new AcpRefusal(result.content);
  return result;
}

/**
 * Where a terminal the agent asks for starts: an existing directory inside the worktree (never
 * in `.git`, never through a link that leads out), as a path under `cwd`. Resolved once, here;
 * the sandbox binds `cwd` whatever this is and only changes into it, so a path swapped for a
 * link after this check leads nowhere the sandbox does not already show.
 */
export async function terminalDirectory(cwd: string, requested: string): Promise<string> {
  const resolved = await resolve(cwd, requested);
  const stats = resolved.exists ? await stat(resolved.absolute).catch(() => undefined) : undefined;
  if (!stats?.isDirectory()) throw new AcpRefusal(`${requested} is not a directory in the worktree.`);
  return path.join(cwd, resolved.relative);
}

/** Whether a path an agent names (in a tool call's locations) is one it may use. */
export async function insideWorktree(cwd: string, requested: string): Promise<boolean> {
  try {
    await resolve(cwd, requested);
    return true;
  } catch {
    return false;
  }
}

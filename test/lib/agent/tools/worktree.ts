/** A real worktree in a temporary directory, with a sibling "outside" directory to catch escapes. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ToolContext } from "../../../../lib/agent/tool.ts";

export interface TestWorktree {
  /** The worktree root (cwd of the tools). */
  readonly root: string;
  /** A directory next to the worktree, outside it. */
  readonly outside: string;
  readonly questions: string[];
  context(overrides?: Partial<ToolContext>): ToolContext;
  write(relative: string, content: string | Buffer): Promise<void>;
  read(relative: string): Promise<string>;
  cleanup(): Promise<void>;
}

export const DEFAULT_DENY = [
  "git push*",
  "git remote*",
  "git config*",
  "*--receive-pack*",
  "*--upload-pack*",
  "*ext::*",
];

export async function createWorktree(): Promise<TestWorktree> {
  const base = await mkdtemp(path.join(os.tmpdir(), "locus-tools-"));
  const root = path.join(base, "worktree");
  const outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  const questions: string[] = [];
  return {
    root,
    outside,
    questions,
    context(overrides = {}) {
      return {
        cwd: root,
        signal: new AbortController().signal,
        shell: { allow: ["*"], deny: DEFAULT_DENY, timeoutSeconds: 30 },
        hooks: [],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: base, LANG: "C.UTF-8" },
        onQuestion: (question) => questions.push(question),
        ...overrides,
      };
    },
    async write(relative, content) {
      const absolute = path.join(root, relative);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content);
    },
    read(relative) {
      return readFile(path.join(root, relative), "utf8");
    },
    cleanup() {
      return rm(base, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the simulator's programs (git, git-http-backend) from a small child process instead of
 * from the process that asks. Node forks on Linux to start a program, and a fork copies the
 * page tables of the whole process: from a test worker or the demo, which hold the simulator, the
 * app and GitHub's GraphQL schema, each start blocked the event loop for about 12 ms (3.7 s of
 * the demo's main process over 291 starts, by a CPU profile). From a Node process of 54 MB a start
 * and run of `/bin/true` takes about 3.5 ms (21 ms from one of 2.4 GB), and here it blocks nothing. The child (spawner-child.ts) imports only Node's own
 * modules; it is started on first use and ends with its parent.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface SpawnedRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

export interface SpawnerRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly input?: Buffer | string;
  readonly maxBuffer?: number;
}

interface Answer {
  readonly id: number;
  readonly started: boolean;
  readonly code: number | null;
  readonly signal: string | null;
  readonly message?: string;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
}

const CHILD = fileURLToPath(new URL("./spawner-child.ts", import.meta.url));

let child: ChildProcess | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (run: SpawnedRun) => void; reject: (error: Error) => void }>();

function started(): ChildProcess {
  if (child?.connected) return child;
  const made = fork(CHILD, [], { serialization: "advanced", stdio: ["ignore", "ignore", "inherit", "ipc"] });
  made.on("message", (answer: Answer) => {
    const entry = waiting.get(answer.id);
    if (!entry) return;
    waiting.delete(answer.id);
    if (!answer.started) entry.reject(new Error(answer.message ?? "the program did not start"));
    else
      entry.resolve({
        code: answer.code,
        signal: answer.signal,
        stdout: Buffer.from(answer.stdout),
        stderr: Buffer.from(answer.stderr),
      });
  });
  // A failed send or a lost channel ends the child: the `exit` below answers whoever waits.
  made.on("error", () => made.kill());
  made.on("exit", () => {
    if (child === made) child = undefined;
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      entry.reject(new Error("the spawner's child ended"));
    }
  });
  child = made;
  return made;
}

/** Runs a program to its end in the spawner's child; rejects only when it could not be started. */
export function spawnerRun(request: SpawnerRequest): Promise<SpawnedRun> {
  const spawner = started();
  const id = nextId++;
  return new Promise<SpawnedRun>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    // Only while something waits does the child keep this process alive.
    if (waiting.size === 1) {
      spawner.ref();
      spawner.channel?.ref();
    }
    const env =
      request.env &&
      Object.fromEntries(
        Object.entries(request.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
    spawner.send({
      id,
      maxBuffer: 64 * 1024 * 1024,
      ...request,
      args: [...request.args],
      ...(env ? { env } : {}),
    });
  }).finally(() => {
    if (waiting.size === 0) {
      spawner.unref();
      spawner.channel?.unref();
    }
  });
}

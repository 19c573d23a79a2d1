/**
 * The spawner's child (spawner.ts): runs each program its parent asks for and answers with what
 * the program wrote and how it ended. It imports nothing but Node's own modules, so this process
 * stays small and its forks stay cheap.
 */
import { execFile } from "node:child_process";

interface Request {
  readonly id: number;
  readonly file: string;
  readonly args: string[];
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  readonly input?: Uint8Array | string;
  readonly maxBuffer: number;
}

process.on("message", (request: Request) => {
  const { id, file, args, cwd, env, input, maxBuffer } = request;
  const child = execFile(file, args, { cwd, env, encoding: "buffer", maxBuffer }, (error, stdout, stderr) => {
    // A string code is Node's own (the program was not found, or not run): only an exit status is the program's.
    const started =
      !error || typeof error.code !== "string" || error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER";
    process.send?.({
      id,
      started,
      code: error ? (typeof error.code === "number" ? error.code : null) : 0,
      signal: error?.signal ?? null,
      message: error && !started ? error.message : undefined,
      stdout,
      stderr,
    });
  });
  // A program may end without reading all its input (a CGI answering an empty request): that is its
  // answer, not this process's failure.
  child.stdin?.on("error", () => undefined);
  child.stdin?.end(input === undefined ? undefined : Buffer.from(input));
});
process.on("disconnect", () => process.exit(0));
